import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import onnxProto from 'onnx-proto';
import { foldAffineOps } from '../../src/engine/read/onnx-fold.js';
import { DET_MODEL, PPOCR_ASSETS, REC_MODEL } from '../../src/engine/read/ppocr-models.js';

const { onnx } = onnxProto;

let seed = 7;
const random = (n: number) => Float32Array.from({ length: n }, () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1);

type Attr = number | number[];
const node = (opType: string, input: string[], output: string, attrs: Record<string, Attr> = {}) =>
  onnx.NodeProto.create({
    opType,
    input,
    output: [output],
    attribute: Object.entries(attrs).map(([name, v]) => (typeof v === 'number' ? { name, type: 1, f: v } : { name, type: 7, ints: v })),
  });
const scalarNode = (name: string, v: number) =>
  onnx.NodeProto.create({ opType: 'Constant', output: [name], attribute: [{ name: 'value', type: 4, t: { dataType: 1, dims: [1], floatData: [v] } }] });
const tensor = (name: string, dims: number[]) => onnx.TensorProto.create({ name, dataType: 1, dims, floatData: [...random(dims.reduce((a, b) => a * b))] });
const io = (name: string) => onnx.ValueInfoProto.create({ name, type: { tensorType: { elemType: 1, shape: { dim: [{ dimValue: 1 }, { dimValue: 3 }, { dimParam: 'h' }, { dimParam: 'w' }] } } } });

/** x · a + b, then hard-swish spelled out as paddle2onnx writes it, then · c + d. */
function lcnetBlock(x: string, k: string): ReturnType<typeof node>[] {
  return [
    scalarNode(`${k}a`, 1.7), scalarNode(`${k}b`, 0.4), scalarNode(`${k}3`, 3), scalarNode(`${k}6`, 6), scalarNode(`${k}c`, 0.3), scalarNode(`${k}d`, -0.2),
    node('Mul', [`${k}a`, x], `${k}m1`), node('Add', [`${k}m1`, `${k}b`], `${k}y`),
    node('Add', [`${k}y`, `${k}3`], `${k}p3`), node('Clip', [`${k}p3`], `${k}clip`, { min: 0, max: 6 }),
    node('Mul', [`${k}y`, `${k}clip`], `${k}hs6`), node('Div', [`${k}hs6`, `${k}6`], `${k}hs`),
    node('Mul', [`${k}c`, `${k}hs`], `${k}m2`), node('Add', [`${k}m2`, `${k}d`], `${k}out`),
  ];
}

/** conv 3x3 (padded) → block → conv 1x1 (unpadded) → block → conv 3x3 (padded) → a Clip(0, 1) that is no hard-swish. */
function smallModel(): Uint8Array {
  const pads1 = { kernel_shape: [3, 3], pads: [1, 1, 1, 1] };
  const nodes = [
    node('Conv', ['x', 'w1', 'b1'], 'c1', pads1),
    ...lcnetBlock('c1', 'p'),
    node('Conv', ['pout', 'w2'], 'c2', { kernel_shape: [1, 1] }),
    ...lcnetBlock('c2', 'q'),
    node('Conv', ['qout', 'w3', 'b3'], 'c3', pads1),
    node('Clip', ['c3'], 'y', { min: 0, max: 1 }),
  ];
  const model = onnx.ModelProto.create({
    irVersion: 7,
    opsetImport: [{ domain: '', version: 9 }],
    graph: {
      name: 'lcnet-like',
      node: nodes,
      initializer: [tensor('w1', [4, 3, 3, 3]), tensor('b1', [4]), tensor('w2', [5, 4, 1, 1]), tensor('w3', [3, 5, 3, 3]), tensor('b3', [3])],
      input: [io('x')],
      output: [io('y')],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

async function run(model: Uint8Array, input: Float32Array, dims: number[]): Promise<Float32Array> {
  const session = await ort.InferenceSession.create(model, { logSeverityLevel: 3 });
  const out = await session.run({ [session.inputNames[0]]: new ort.Tensor('float32', input, dims) });
  await session.release();
  return out[session.outputNames[0]].data as Float32Array;
}

function maxDiff(a: Float32Array, b: Float32Array): number {
  assert.equal(a.length, b.length);
  return a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);
}

const opsOf = (model: Uint8Array) => onnx.ModelProto.decode(model).graph!.node!.filter((n) => n.opType !== 'Constant').map((n) => n.opType);

describe('folding affine and hard-swish chains into ONNX convolutions', () => {
  it('gives the same outputs with the chains folded into convolutions, HardSigmoid and BatchNormalization', async () => {
    const before = smallModel();
    const folded = foldAffineOps(before);
    const ops = opsOf(folded.model);
    // Before: 3 Conv, 2 x 8 block ops, 1 Clip(0, 1).
    assert.equal(folded.opsBefore, 20);
    // The first block: its a·x+b into conv 1, its hard-swish HardSigmoid+Mul, its c·x+d into the 1x1 conv.
    // The second: a·x+b into conv 2, HardSigmoid+Mul, c·x+d as BatchNormalization (conv 3 is padded).
    assert.deepEqual(ops, ['Conv', 'HardSigmoid', 'Mul', 'Conv', 'HardSigmoid', 'Mul', 'BatchNormalization', 'Conv', 'Clip']);
    assert.equal(folded.opsAfter, ops.length);
    const x = random(3 * 9 * 13);
    const want = await run(before, x, [1, 3, 9, 13]);
    const got = await run(folded.model, x, [1, 3, 9, 13]);
    assert.ok(want.some((v) => v > 0 && v < 1), 'the model computes something');
    assert.ok(maxDiff(want, got) < 1e-5, `max difference ${maxDiff(want, got)}`);
  });

  it('leaves a model without such chains as it was', () => {
    const model = onnx.ModelProto.encode(
      onnx.ModelProto.create({
        irVersion: 7,
        opsetImport: [{ domain: '', version: 9 }],
        graph: {
          name: 'plain',
          node: [node('Conv', ['x', 'w'], 'c', { kernel_shape: [1, 1] }), node('Relu', ['c'], 'y')],
          // "bias" is an input with a default that no node reads: it stays.
          initializer: [tensor('w', [3, 3, 1, 1]), tensor('bias', [3])],
          input: [io('x'), onnx.ValueInfoProto.create({ name: 'bias', type: { tensorType: { elemType: 1, shape: { dim: [{ dimValue: 3 }] } } } })],
          output: [io('y')],
        },
      }),
    ).finish();
    const folded = foldAffineOps(model);
    assert.deepEqual(opsOf(folded.model), ['Conv', 'Relu']);
    assert.deepEqual(onnx.ModelProto.decode(folded.model).graph!.initializer!.map((t) => t.name), ['w', 'bias']);
    assert.equal(folded.opsBefore, folded.opsAfter);
  });

  const models: [string, number[]][] = [
    [REC_MODEL, [1, 3, 48, 320]],
    [DET_MODEL, [1, 3, 160, 224]],
  ];
  for (const [file, dims] of models) {
    it(`reads as before with ${file} folded, in far fewer ops`, async () => {
      const before = readFileSync(join(PPOCR_ASSETS, file));
      const folded = foldAffineOps(before);
      assert.ok(folded.opsAfter < 0.75 * folded.opsBefore, `${folded.opsBefore} -> ${folded.opsAfter} ops`);
      assert.ok(!opsOf(folded.model).includes('Clip'), 'every hard-swish rewritten');
      const x = random(dims.reduce((a, b) => a * b));
      const want = await run(before, x, dims);
      const got = await run(folded.model, x, dims);
      assert.ok(maxDiff(want, got) < 1e-4, `max difference ${maxDiff(want, got)}`);
    });
  }
});
