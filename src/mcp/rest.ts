// The body of a successful REST answer, or the tool error it maps to.
import type { ApiResponse } from './api-caller.js';
import { errorFromResponse } from './tool-errors.js';

export function expectOk<T = unknown>(res: ApiResponse): T {
  if (res.status < 200 || res.status >= 300) throw errorFromResponse(res);
  return res.body as T;
}
