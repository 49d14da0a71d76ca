// Exact simplification of a convolutional ONNX graph before onnxruntime loads it. paddle2onnx writes
// PP-LCNetV3's learnable affine blocks (a·x + b on either side of every activation) and its hard-swish
// as chains of Mul/Add/Clip/Div by scalar constants. onnxruntime runs each as its own pass over the
// tensor and converts between its blocked convolution layout (NCHWc) and plain NCHW around each one:
// on the PP-OCRv4 recogniser those ops and conversions took over half of the time in onnxruntime's
// profile. Here the chains are
// folded into the neighbouring convolutions' weights, the hard-swish becomes x·HardSigmoid(x) and
// what is left becomes one BatchNormalization, ops that stay in the blocked layout. The results agree
// with the original graph's to float rounding (test/engine/onnx-fold.test.ts; bench/ppocr-fold.ts).
import onnxProto, { type onnx as Onnx } from 'onnx-proto';

const { onnx } = onnxProto;
type Node = Onnx.INodeProto;

/** y = s·x + t */
interface Affine {
  s: number;
  t: number;
}

interface Tensor {
  dims: number[];
  data: Float32Array;
}

export interface FoldResult {
  model: Uint8Array;
  /** Ops before and after. */
  opsBefore: number;
  opsAfter: number;
}

/** Returns the serialized model with its affine and hard-swish chains folded (unchanged when there are none). */
export function foldAffineOps(bytes: Uint8Array): FoldResult {
  const model = onnx.ModelProto.decode(bytes);
  const graph = model.graph;
  if (!graph?.node) return { model: bytes, opsBefore: 0, opsAfter: 0 };
  const g = new GraphEdit(graph, opsetOf(model));
  const opsBefore = g.opCount();
  g.rewriteHardSwish();
  g.foldAffineRuns();
  g.dropUnusedConstants();
  return { model: onnx.ModelProto.encode(model).finish(), opsBefore, opsAfter: g.opCount() };
}

function opsetOf(model: Onnx.IModelProto): number {
  const main = model.opsetImport?.find((o) => !o.domain || o.domain === 'ai.onnx');
  return Number(main?.version ?? 0);
}

class GraphEdit {
  private nodes: Node[];
  private readonly consts = new Map<string, Tensor>();
  private readonly graphOutputs: Set<string>;
  private producer = new Map<string, Node>();
  private consumers = new Map<string, Node[]>();
  private uid = 0;

  constructor(
    private readonly graph: Onnx.IGraphProto,
    private readonly opset: number,
  ) {
    this.nodes = graph.node ?? [];
    this.graphOutputs = new Set((graph.output ?? []).map((o) => o.name ?? ''));
    for (const init of graph.initializer ?? []) this.addConst(init.name ?? '', init);
    for (const n of this.nodes) {
      const value = n.opType === 'Constant' ? n.attribute?.find((a) => a.name === 'value')?.t : undefined;
      if (value) this.addConst(n.output?.[0] ?? '', value);
    }
    this.index();
  }

  opCount(): number {
    return this.nodes.filter((n) => n.opType !== 'Constant').length;
  }

  /** Add(x, 3) → Clip(0, 6) → Mul(x, ·) → Div(·, 6) becomes Mul(x, HardSigmoid(x)). */
  rewriteHardSwish(): void {
    for (const clip of this.nodes.filter((n) => n.opType === 'Clip')) {
      if (!this.isClip06(clip)) continue;
      const add = this.producer.get(clip.input![0]);
      const x = add && this.affineOp(add)?.x;
      if (!add || !x || !this.affineEquals(add, { s: 1, t: 3 }) || !this.onlyConsumer(add.output![0], clip)) continue;
      const mul = this.soleConsumer(clip.output![0]);
      if (mul?.opType !== 'Mul' || !mul.input!.includes(x)) continue;
      const div = this.soleConsumer(mul.output![0]);
      if (!div || !this.affineEquals(div, { s: 1 / 6, t: 0 })) continue;
      clip.opType = 'HardSigmoid';
      clip.input = [x];
      clip.attribute = [onnx.AttributeProto.create({ name: 'alpha', type: 1, f: 1 / 6 }), onnx.AttributeProto.create({ name: 'beta', type: 1, f: 0.5 })];
      mul.output = div.output;
      this.remove(add, div);
    }
  }

  /**
   * Each maximal run of scalar Mul/Add/Sub/Div ops is folded into the convolution that produces its
   * input, else into an unpadded convolution that alone reads its output (a padded one would see
   * the shift at its borders), else replaced by one BatchNormalization where the channel count is known.
   */
  foldAffineRuns(): void {
    for (const head of [...this.nodes]) {
      if (!this.nodes.includes(head)) continue;
      const first = this.affineOp(head);
      if (!first) continue;
      const before = this.producer.get(first.x);
      if (before && this.affineOp(before) && this.onlyConsumer(first.x, head)) continue; // not a run's head
      const run = [head];
      let f = first.f;
      for (;;) {
        const next = this.soleConsumer(run[run.length - 1].output![0]);
        const op = next && this.affineOp(next);
        if (!op) break;
        run.push(next);
        f = { s: op.f.s * f.s, t: op.f.s * f.t + op.f.t };
      }
      const y = run[run.length - 1].output![0];
      if (before && this.foldableConv(before) && this.onlyConsumer(first.x, head)) {
        this.scaleConv(before, f.s, (o) => f.t + f.s * this.bias(before, o));
        before.output = [y];
        this.remove(...run);
        continue;
      }
      const after = this.soleConsumer(y);
      if (after && this.foldableConv(after) && after.input![0] === y && !this.padded(after)) {
        const w = this.consts.get(after.input![1])!;
        const per = w.data.length / w.dims[0];
        const sums = Array.from({ length: w.dims[0] }, (_, o) => w.data.subarray(o * per, (o + 1) * per).reduce((a, v) => a + v, 0));
        this.scaleConv(after, f.s, (o) => this.bias(after, o) + f.t * sums[o]);
        after.input![0] = first.x;
        this.remove(...run);
        continue;
      }
      // BatchNormalization as it is from opset 9 on (no `spatial`, `is_test` or `consumed_inputs`).
      const channels = this.opset >= 9 ? this.channelsOf(first.x) : undefined;
      if (channels) {
        const bn = run[0];
        bn.opType = 'BatchNormalization';
        bn.input = [
          first.x,
          this.newConst(new Float32Array(channels).fill(f.s)),
          this.newConst(new Float32Array(channels).fill(f.t)),
          this.newConst(new Float32Array(channels)),
          this.newConst(new Float32Array(channels).fill(1)),
        ];
        bn.attribute = [onnx.AttributeProto.create({ name: 'epsilon', type: 1, f: 0 })];
        bn.output = [y];
        this.remove(...run.slice(1));
      }
    }
  }

  dropUnusedConstants(): void {
    const used = new Set([...this.nodes.flatMap((n) => n.input ?? []), ...this.graphOutputs]);
    this.nodes = this.nodes.filter((n) => n.opType !== 'Constant' || used.has(n.output![0]));
    this.graph.node = this.nodes;
    // An initializer that is also a graph input is that input's default: it stays.
    const inputs = new Set((this.graph.input ?? []).map((i) => i.name));
    this.graph.initializer = (this.graph.initializer ?? []).filter((t) => used.has(t.name ?? '') || inputs.has(t.name));
  }

  /** A Mul/Add/Sub/Div of one non-constant input by a float scalar constant, as an affine map. */
  private affineOp(n: Node): { x: string; f: Affine } | undefined {
    const [a, b] = n.input ?? [];
    if (n.input?.length !== 2 || this.graphOutputs.has(n.output![0])) return undefined;
    const ca = this.scalar(a);
    const cb = this.scalar(b);
    if ((ca === undefined) === (cb === undefined)) return undefined;
    const x = ca === undefined ? a : b;
    const c = (ca ?? cb)!;
    switch (n.opType) {
      case 'Mul':
        return { x, f: { s: c, t: 0 } };
      case 'Add':
        return { x, f: { s: 1, t: c } };
      case 'Sub':
        return cb !== undefined ? { x, f: { s: 1, t: -c } } : { x, f: { s: -1, t: c } };
      case 'Div':
        return cb !== undefined && c !== 0 ? { x, f: { s: 1 / c, t: 0 } } : undefined;
      default:
        return undefined;
    }
  }

  private affineEquals(n: Node, want: Affine): boolean {
    const f = this.affineOp(n)?.f;
    return !!f && Math.abs(f.s - want.s) < 1e-6 && Math.abs(f.t - want.t) < 1e-6;
  }

  private isClip06(clip: Node): boolean {
    if (this.opset < 11) {
      const attr = (name: string) => clip.attribute?.find((a) => a.name === name)?.f;
      return attr('min') === 0 && attr('max') === 6;
    }
    return this.scalar(clip.input?.[1] ?? '') === 0 && this.scalar(clip.input?.[2] ?? '') === 6;
  }

  /** Output channels of a 4-D tensor made by a convolution, possibly through elementwise ops. */
  private channelsOf(name: string, depth = 0): number | undefined {
    const p = this.producer.get(name);
    if (!p || depth > 8) return undefined;
    if (p.opType === 'Conv') return this.consts.get(p.input![1])?.dims[0];
    if (['HardSigmoid', 'Relu', 'Sigmoid', 'BatchNormalization'].includes(p.opType ?? '')) return this.channelsOf(p.input![0], depth + 1);
    if (p.opType === 'Mul' && p.input!.every((i) => !this.consts.has(i))) {
      const [a, b] = p.input!.map((i) => this.channelsOf(i, depth + 1));
      return a !== undefined && a === b ? a : undefined;
    }
    return undefined;
  }

  /** Scales a convolution's weights and sets its bias; the caller re-indexes as it removes the folded ops. */
  private scaleConv(conv: Node, s: number, biasOf: (o: number) => number): void {
    const w = this.consts.get(conv.input![1])!;
    const outs = w.dims[0];
    conv.input![1] = this.newConst(w.data.map((v) => v * s), w.dims);
    conv.input![2] = this.newConst(Float32Array.from({ length: outs }, (_, o) => biasOf(o)));
  }

  /** A convolution with constant 4-D weights and, if any, a constant bias. */
  private foldableConv(n: Node): boolean {
    const [, w, b] = n.input ?? [];
    return n.opType === 'Conv' && this.consts.get(w)?.dims.length === 4 && (!b || this.consts.has(b));
  }

  private bias(conv: Node, o: number): number {
    const b = conv.input?.[2];
    return b ? this.consts.get(b)!.data[o] : 0;
  }

  private padded(conv: Node): boolean {
    const autoPad = conv.attribute?.find((a) => a.name === 'auto_pad')?.s;
    if (autoPad && !['NOTSET', 'VALID'].includes(Buffer.from(autoPad).toString())) return true;
    return (conv.attribute?.find((a) => a.name === 'pads')?.ints ?? []).some((p) => Number(p) !== 0);
  }

  private scalar(name: string): number | undefined {
    const t = this.consts.get(name);
    return t && t.data.length === 1 && t.dims.length <= 1 ? t.data[0] : undefined;
  }

  private addConst(name: string, t: Onnx.ITensorProto): void {
    if (t.dataType !== onnx.TensorProto.DataType.FLOAT) return;
    const raw = t.rawData?.length ? t.rawData : undefined;
    // A copy: protobufjs hands out views into the model's buffer, at any alignment.
    const data = raw ? new Float32Array(new Uint8Array(raw).buffer) : Float32Array.from(t.floatData ?? []);
    this.consts.set(name, { dims: (t.dims ?? []).map(Number), data });
  }

  private newConst(data: Float32Array, dims = [data.length]): string {
    const name = `onnx_fold_${this.uid++}`;
    const t = onnx.TensorProto.create({ dataType: onnx.TensorProto.DataType.FLOAT, dims, rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) });
    this.nodes.unshift(onnx.NodeProto.create({ opType: 'Constant', output: [name], attribute: [onnx.AttributeProto.create({ name: 'value', type: 4, t })] }));
    this.consts.set(name, { dims, data });
    return name;
  }

  private remove(...dead: Node[]): void {
    const set = new Set(dead);
    this.nodes = this.nodes.filter((n) => !set.has(n));
    this.index();
  }

  private index(): void {
    this.producer = new Map();
    this.consumers = new Map();
    for (const n of this.nodes) {
      for (const o of n.output ?? []) this.producer.set(o, n);
      for (const i of n.input ?? []) this.consumers.set(i, [...(this.consumers.get(i) ?? []), n]);
    }
  }

  private soleConsumer(name: string): Node | undefined {
    const c = this.consumers.get(name) ?? [];
    return c.length === 1 && !this.graphOutputs.has(name) ? c[0] : undefined;
  }

  private onlyConsumer(name: string, n: Node): boolean {
    return this.soleConsumer(name) === n;
  }
}
