import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactUrl } from '../../src/shared/redact-url.js';

test('a URL with a user name or password is logged with *** in their place', () => {
  assert.equal(redactUrl('http://user:pass@host:8080/api/?q=1'), 'http://***@host:8080/api/?q=1');
  assert.equal(redactUrl('https://token@example.com/'), 'https://***@example.com/');
  assert.equal(redactUrl('https://:only-pass@example.com/x'), 'https://***@example.com/x');
});

test('a URL without credentials, and a value that is no URL, are unchanged', () => {
  assert.equal(redactUrl('http://127.0.0.1:8080'), 'http://127.0.0.1:8080');
  assert.equal(redactUrl('embedded'), 'embedded');
  assert.equal(redactUrl('not a url://u:p@x'), 'not a url://u:p@x');
  assert.equal(redactUrl('bad://u:p@[x/'), 'bad://***@[x/');
});
