// The XML serializer behind Accept: application/xml (get-document here, run_parser on the jobs side).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toXml, wantsXml } from '../../src/service/http/xml.js';

test('serializes objects as elements, arrays as <item>, null as nil, and escapes text', () => {
  const xml = toXml('job', { a: 'x < y & "z"', n: 3, ok: true, none: null, list: [1, { b: 'c' }], empty: {}, skipped: undefined });
  assert.equal(
    xml,
    '<?xml version="1.0" encoding="UTF-8"?>\n<job><a>x &lt; y &amp; &quot;z&quot;</a><n>3</n><ok>true</ok><none nil="true"/>' +
      '<list><item>1</item><item><b>c</b></item></list><empty></empty></job>',
  );
});

test('keys that are not XML names become <entry key="...">', () => {
  assert.match(toXml('scores', { 'tax invoice': 0.9, '1st': 0.1, xmlish: 0 }), /<entry key="tax invoice">0.9<\/entry><entry key="1st">0.1<\/entry><entry key="xmlish">0<\/entry>/);
});

test('drops characters XML 1.0 cannot carry', () => {
  assert.equal(toXml('t', 'a\u0000b\u0007c'), '<?xml version="1.0" encoding="UTF-8"?>\n<t>abc</t>');
});

test('chooses XML only when the Accept header prefers it', () => {
  assert.equal(wantsXml(undefined), false);
  assert.equal(wantsXml('application/json'), false);
  assert.equal(wantsXml('*/*'), false);
  assert.equal(wantsXml('application/xml'), true);
  assert.equal(wantsXml('text/xml'), true);
  assert.equal(wantsXml('application/xml, */*'), true);
  assert.equal(wantsXml('application/json;q=0.5, application/xml'), true);
  assert.equal(wantsXml('application/json, application/xml;q=0.9'), false);
});
