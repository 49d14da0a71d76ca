// The PP-OCRv4 models as published against the same models with their affine and hard-swish chains
// folded (src/engine/read/onnx-fold.ts), with the PP-OCR worker's session options:
//   npx tsx bench/ppocr-fold.ts [--rounds=N]
// The recogniser reads 40 text lines of the widths a receipt gives (48 px high, 96-480 px wide), the
// detector three page sizes; inputs are random, as an op's time does not depend on the values. Prints
// ms per line and per page for both, and the largest difference between their outputs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tensor } from 'onnxruntime-node';
import { foldAffineOps } from '../src/engine/read/onnx-fold.js';
import { DET_MODEL, openPpocrModel, PPOCR_ASSETS, REC_MODEL } from '../src/engine/read/ppocr-models.js';

const args = process.argv.slice(2);
const rounds = Number(args.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 5);

let seed = 1;
const random = (n: number) => Float32Array.from({ length: n }, () => ((seed = (seed * 16807) % 2147483647) / 2147483647) - 0.5);

async function compare(file: string, unit: string, shapes: number[][]): Promise<void> {
  const t0 = performance.now();
  const folded = foldAffineOps(readFileSync(join(PPOCR_ASSETS, file)));
  const foldMs = performance.now() - t0;
  const sessions = { published: await openPpocrModel(file, false), folded: await openPpocrModel(file) };
  const inputs = shapes.map((dims) => ({ dims, data: random(dims.reduce((a, b) => a * b)) }));
  const ms = { published: [] as number[], folded: [] as number[] };
  const outputs: Record<string, Float32Array[]> = {};
  for (let r = 0; r < rounds; r++) {
    // Alternate which goes first, so that neither always runs on a warmer cache.
    for (const name of (r % 2 ? ['folded', 'published'] : ['published', 'folded']) as (keyof typeof sessions)[]) {
      const s = sessions[name];
      const start = performance.now();
      outputs[name] = [];
      for (const { dims, data } of inputs) {
        outputs[name].push((await s.run({ [s.inputNames[0]]: new Tensor('float32', data, dims) }))[s.outputNames[0]].data as Float32Array);
      }
      ms[name].push((performance.now() - start) / inputs.length);
    }
  }
  let diff = 0;
  outputs.published.forEach((o, i) => o.forEach((v, j) => (diff = Math.max(diff, Math.abs(v - outputs.folded[i][j])))));
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
  const [p, f] = [median(ms.published), median(ms.folded)];
  console.log(
    `${file}: ${folded.opsBefore} -> ${folded.opsAfter} ops (folded in ${foldMs.toFixed(0)} ms); ` +
      `ms per ${unit} (median of ${rounds}): published ${p.toFixed(1)}, folded ${f.toFixed(1)} (${((1 - f / p) * 100).toFixed(0)}% less); ` +
      `largest output difference ${diff.toExponential(1)}`,
  );
  await Promise.all(Object.values(sessions).map((s) => s.release()));
}

const lineWidths = [96, 120, 160, 200, 240, 320, 400, 480];
await compare(REC_MODEL, 'line', Array.from({ length: 40 }, (_, i) => [1, 3, 48, lineWidths[i % lineWidths.length]]));
await compare(DET_MODEL, 'page', [[1, 3, 960, 448], [1, 3, 960, 672], [1, 3, 736, 960]]);
