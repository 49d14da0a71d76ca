// The identity provider's two endpoints as plain form POSTs (RFC 6749 section 4, RFC 8628): the token
// endpoint and the device authorization endpoint. Answers are validated once here; failures become a
// MailLoginError that says whether a retry can help. Neither the form (client secret, refresh token) nor
// a token ever goes into an error message.
import { request } from 'undici';
import { z } from 'zod';
import { redactUrl } from '../../../shared/redact-url.js';

const TIMEOUT_MS = 30_000;

/**
 * A mailbox login that did not succeed before IMAP. `authenticationFailed` (the field imapflow's errors
 * carry too): the provider refused our credentials, so retrying the same ones cannot help; otherwise the
 * provider could not be reached or answered wrongly, which may pass.
 */
export class MailLoginError extends Error {
  override name = 'MailLoginError';
  constructor(
    message: string,
    readonly authenticationFailed: boolean,
    /** The OAuth2 error code (invalid_grant, authorization_pending...) or a network error code. */
    readonly code?: string,
  ) {
    super(message);
  }
}

const tokenResponse = z.object({
  access_token: z.string().min(1),
  // Some providers send numbers as strings.
  expires_in: z.coerce.number().positive().optional(),
  refresh_token: z.string().min(1).optional(),
});
export type TokenResponse = z.output<typeof tokenResponse>;

const deviceResponse = z.object({
  device_code: z.string().min(1),
  user_code: z.string().min(1),
  // Google answers verification_url, as drafts of RFC 8628 did.
  verification_uri: z.string().min(1).optional(),
  verification_url: z.string().min(1).optional(),
  verification_uri_complete: z.string().min(1).optional(),
  expires_in: z.coerce.number().positive(),
  interval: z.coerce.number().min(0).optional(),
  message: z.string().optional(),
});
export type DeviceAuthorization = Omit<z.output<typeof deviceResponse>, 'verification_url' | 'verification_uri'> & { verification_uri: string };

const errorResponse = z.object({ error: z.string(), error_description: z.string().optional() });

/** POSTs to the token endpoint; the new tokens, or a MailLoginError with the provider's error code. */
export async function requestToken(url: string, form: Record<string, string | undefined>, signal?: AbortSignal): Promise<TokenResponse> {
  const body = await postForm(url, form, signal);
  const parsed = tokenResponse.safeParse(body);
  if (!parsed.success) throw new MailLoginError(`the token endpoint ${redactUrl(url)} answered without an access token (${describeIssues(parsed.error)})`, false);
  return parsed.data;
}

/** POSTs to the device authorization endpoint (RFC 8628 section 3.1). */
export async function requestDeviceCode(url: string, form: Record<string, string | undefined>, signal?: AbortSignal): Promise<DeviceAuthorization> {
  const body = await postForm(url, form, signal);
  const parsed = deviceResponse.safeParse(body);
  const uri = parsed.success ? (parsed.data.verification_uri ?? parsed.data.verification_url) : undefined;
  if (!parsed.success || uri === undefined) {
    throw new MailLoginError(`the device authorization endpoint ${redactUrl(url)} answered without ${parsed.success ? 'verification_uri' : describeIssues(parsed.error)}`, false);
  }
  const { verification_url: _, ...rest } = parsed.data;
  return { ...rest, verification_uri: uri };
}

/** A 2xx answer's JSON object; any other answer a MailLoginError (permanent for a 4xx OAuth2 error, else transient). */
async function postForm(url: string, form: Record<string, string | undefined>, signal?: AbortSignal): Promise<unknown> {
  const fields = Object.entries(form).filter((e): e is [string, string] => e[1] !== undefined);
  const where = redactUrl(url);
  let res;
  try {
    res = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(fields).toString(),
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]) : AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    signal?.throwIfAborted();
    const code = (err as { code?: string }).code;
    throw new MailLoginError(`cannot reach ${where}: ${(err as Error).message}`, false, code);
  }
  const json: unknown = await res.body.json().catch(() => undefined);
  if (res.statusCode >= 200 && res.statusCode < 300) {
    if (json === undefined) throw new MailLoginError(`${where} answered HTTP ${res.statusCode} without JSON`, false);
    return json;
  }
  const oauth = errorResponse.safeParse(json);
  if (!oauth.success) throw new MailLoginError(`${where} answered HTTP ${res.statusCode}`, false, String(res.statusCode));
  const { error, error_description } = oauth.data;
  // RFC 6749 5.2: these come back with 400/401 and mean the credentials or the request are wrong; a
  // pending device authorization (RFC 8628 3.5) is the caller's to handle.
  const refused = res.statusCode < 500 && res.statusCode !== 429;
  throw new MailLoginError(`${where} refused: ${error}${error_description ? ` (${oneLine(error_description)})` : ''}`, refused, error);
}

function oneLine(s: string): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

function describeIssues(err: z.ZodError): string {
  return err.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
}
