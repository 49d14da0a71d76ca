// The skew of a photographed or scanned page: text lines at a small angle. PP-OCR cuts lines out as
// upright boxes, so a long line at 1.5° spans two text rows and is read as noise ("JALANTERAU000GERGTW"
// for "JALAN TEBRAU, 10200 GEORGETOWN"). The angle is the one under which the ink's row profile has the
// sharpest peaks: rows of text, not slants across them.

/** Angles tried, in degrees either way: phone photos of receipts lean by a few degrees. */
const MAX_DEGREES = 5;
const STEP_DEGREES = 0.25;
/** Below this the page is taken as straight: OCR reads lines at a fraction of a degree well. */
const MIN_DEGREES = 0.5;
/** The best angle must sharpen the profile by this much over none, else the page has no clear rows. */
const MIN_GAIN = 1.1;
/** Strokes are at most this share of the page's width across (1/100): wider dark runs are background. */
const STROKE_REACH = 100;
/** Ink points sampled at most: enough for the profile of a page, cheap to rotate 41 times. */
const MAX_POINTS = 60_000;
/** Grid step of the first count of stroke pixels. */
const COARSE_STEP = 4;

/**
 * The angle in degrees (clockwise positive, as sharp's rotate takes it) that straightens the page's
 * text lines, or 0 when the page is straight or shows no clear lines of text.
 */
export function skewDegrees(gray: Uint8Array, width: number, height: number): number {
  const histogram = new Uint32Array(256);
  for (let i = 0; i < gray.length; i++) histogram[gray[i]]++;
  const percentile = (share: number) => {
    let seen = 0;
    for (let v = 0; v < 256; v++) if ((seen += histogram[v]) >= gray.length * share) return v;
    return 255;
  };
  // Ink: darker than halfway from the darkest percent to the paper, the median of the bright side of the
  // picture (Otsu's split): not of the whole, which is the table where a receipt lies on it, filling most of the photo.
  const paper = medianFrom(histogram, otsuSplit(histogram, gray.length));
  const inkBelow = (percentile(0.01) + paper) / 2;
  // A stroke has paper on both sides within a few pixels; the table a receipt lies on, or a scanner's
  // dark margin, does not: its edges lean with the photo, not with the lines of text.
  const reach = Math.max(4, Math.round(width / STROKE_REACH));
  const paperWithin = (row: number, x: number, step: 1 | -1): boolean => {
    for (let k = 1; k <= reach; k++) {
      const v = gray[row + x + k * step];
      if (v === undefined || x + k * step < 0 || x + k * step >= width) return false;
      if (v >= inkBelow) return true;
    }
    return false;
  };
  const strokes = (every: number): { xs: number[]; ys: number[] } => {
    const xs: number[] = [];
    const ys: number[] = [];
    for (let y = 0; y < height; y += every) {
      for (let x = 0; x < width; x += every) {
        if (gray[y * width + x] < inkBelow && paperWithin(y * width, x, -1) && paperWithin(y * width, x, 1)) xs.push(x), ys.push(y);
      }
    }
    return { xs, ys };
  };
  // Sampled as densely as MAX_POINTS allows, counted on a coarse grid first (a dark table is no stroke, so
  // the dark pixels alone would sample the text too thinly).
  const coarse = strokes(COARSE_STEP);
  const every = Math.max(1, Math.ceil(Math.sqrt((coarse.xs.length * COARSE_STEP * COARSE_STEP) / MAX_POINTS)));
  const { xs, ys } = every === COARSE_STEP ? coarse : strokes(every);
  if (xs.length === 0) return 0;
  const sharpness = (degrees: number): number => {
    const t = Math.tan((degrees * Math.PI) / 180);
    const bins = new Map<number, number>();
    for (let i = 0; i < xs.length; i++) {
      const row = Math.round((ys[i] - xs[i] * t) / every);
      bins.set(row, (bins.get(row) ?? 0) + 1);
    }
    let sum = 0;
    for (const n of bins.values()) sum += n * n;
    return sum;
  };
  const straight = sharpness(0);
  let best = 0;
  let bestScore = straight;
  for (let d = -MAX_DEGREES; d <= MAX_DEGREES + 1e-9; d += STEP_DEGREES) {
    const s = sharpness(d);
    if (s > bestScore) (best = d), (bestScore = s);
  }
  if (Math.abs(best) < MIN_DEGREES || bestScore < straight * MIN_GAIN) return 0;
  // Rows that fall by `best` degrees to the right are straightened by turning the page back.
  return -best;
}

/** The grey level that splits the histogram into the two classes of least variance within (Otsu): values from it up are the bright class. */
function otsuSplit(histogram: Uint32Array, total: number): number {
  let sumAll = 0;
  for (let v = 0; v < 256; v++) sumAll += v * histogram[v];
  let below = 0;
  let sumBelow = 0;
  let best = 0;
  let split = 128;
  for (let v = 0; v < 255; v++) {
    below += histogram[v];
    sumBelow += v * histogram[v];
    const above = total - below;
    if (below === 0 || above === 0) continue;
    const between = below * above * (sumBelow / below - (sumAll - sumBelow) / above) ** 2;
    if (between > best) (best = between), (split = v + 1);
  }
  return split;
}

/** The median grey level of the pixels from `from` up. */
function medianFrom(histogram: Uint32Array, from: number): number {
  let count = 0;
  for (let v = from; v < 256; v++) count += histogram[v];
  let seen = 0;
  for (let v = from; v < 256; v++) if ((seen += histogram[v]) >= count / 2) return v;
  return 255;
}
