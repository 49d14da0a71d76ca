// A small identity provider on loopback, standing in for Microsoft's or Google's (the one party a test
// cannot run): a token endpoint (refresh_token, client_credentials and device_code grants), a device
// authorization endpoint and the introspection endpoint dovecot's oauth2 passdb asks about each token.
// It records what it was asked, so tests can check which tokens were used when.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';

export interface ProviderOptions {
  /** The mailbox user the tokens are for (introspection's `username`). */
  user: string;
  clientId: string;
  /** Required from clients when set (client_credentials needs it). */
  clientSecret?: string;
  /** Lifetime of access tokens, seconds. */
  expiresIn?: number;
  /** Issue a new refresh token with every refresh and stop honouring the old one (as Microsoft may). */
  rotate?: boolean;
  /** Answers to device-code polls before the sign-in completes, in order (then success). */
  devicePolls?: ('authorization_pending' | 'slow_down' | 'expired_token' | 'access_denied')[];
  /** Device poll interval to announce, seconds. */
  deviceInterval?: number;
}

export interface IntrospectCall {
  token: string;
  active: boolean;
}

export interface TestProvider {
  url: string;
  tokenUrl: string;
  deviceUrl: string;
  introspectionUrl: string;
  /** A refresh token the provider honours (as if `mail login` had run). */
  issueRefreshToken(): string;
  /** Refresh tokens and access tokens stop working (a revoked consent). */
  revokeAll(): void;
  /** Access tokens issued so far stop working; refresh tokens still do. */
  revokeAccessTokens(): void;
  /** When an issued access token expires (ms since the epoch); 0 for one never issued. */
  expiryOf(accessToken: string): number;
  /** Every token request, by grant type (never the secrets). */
  tokenRequests: { grant: string; refreshToken?: string; error?: string }[];
  introspections: IntrospectCall[];
  /** Lifetime of the access tokens issued from now on, seconds (starts as ProviderOptions.expiresIn). */
  expiresIn: number;
  /** Access tokens issued, in order, with the refresh token issued alongside. */
  issued: { accessToken: string; refreshToken?: string }[];
  /** Called on each introspection before it is answered (the crash test kills the daemon here). */
  onIntrospect?: (token: string) => Promise<void> | void;
  stop(): Promise<void>;
}

export async function startTestProvider(o: ProviderOptions): Promise<TestProvider> {
  const refreshTokens = new Set<string>();
  const accessTokens = new Map<string, { expiresAt: number }>();
  const expiries = new Map<string, number>();
  const devicePolls = [...(o.devicePolls ?? [])];
  const deviceCodes = new Set<string>();
  const token = (prefix: string) => `${prefix}-${randomBytes(12).toString('hex')}`;

  const provider: TestProvider = {
    url: '',
    tokenUrl: '',
    deviceUrl: '',
    introspectionUrl: '',
    tokenRequests: [],
    introspections: [],
    expiresIn: o.expiresIn ?? 3600,
    issued: [],
    issueRefreshToken() {
      const rt = token('rt');
      refreshTokens.add(rt);
      return rt;
    },
    revokeAll() {
      refreshTokens.clear();
      accessTokens.clear();
    },
    revokeAccessTokens() {
      accessTokens.clear();
    },
    expiryOf: (at) => expiries.get(at) ?? 0,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const grantTokens = (res: ServerResponse, withRefresh: string | undefined) => {
    const at = token('at');
    const expiresIn = provider.expiresIn;
    accessTokens.set(at, { expiresAt: Date.now() + expiresIn * 1000 });
    expiries.set(at, Date.now() + expiresIn * 1000);
    provider.issued.push({ accessToken: at, ...(withRefresh ? { refreshToken: withRefresh } : {}) });
    json(res, 200, { access_token: at, token_type: 'Bearer', expires_in: expiresIn, ...(withRefresh ? { refresh_token: withRefresh } : {}) });
  };

  const handleToken = (form: URLSearchParams, res: ServerResponse) => {
    const grant = form.get('grant_type') ?? '';
    const fail = (status: number, error: string) => {
      provider.tokenRequests.push({ grant, refreshToken: form.get('refresh_token') ?? undefined, error });
      json(res, status, { error, error_description: `test provider: ${error}` });
    };
    if (form.get('client_id') !== o.clientId) return fail(401, 'invalid_client');
    if (o.clientSecret !== undefined && form.get('client_secret') !== null && form.get('client_secret') !== o.clientSecret) return fail(401, 'invalid_client');
    if (grant === 'refresh_token') {
      const rt = form.get('refresh_token') ?? '';
      if (!refreshTokens.has(rt)) return fail(400, 'invalid_grant');
      provider.tokenRequests.push({ grant, refreshToken: rt });
      let next: string | undefined;
      if (o.rotate) {
        refreshTokens.delete(rt);
        next = provider.issueRefreshToken();
      }
      return grantTokens(res, next);
    }
    if (grant === 'client_credentials') {
      if (form.get('client_secret') !== o.clientSecret) return fail(401, 'invalid_client');
      provider.tokenRequests.push({ grant });
      return grantTokens(res, undefined);
    }
    if (grant === 'urn:ietf:params:oauth:grant-type:device_code') {
      if (!deviceCodes.has(form.get('device_code') ?? '')) return fail(400, 'invalid_grant');
      const answer = devicePolls.shift();
      if (answer) return fail(400, answer);
      provider.tokenRequests.push({ grant });
      return grantTokens(res, provider.issueRefreshToken());
    }
    return fail(400, 'unsupported_grant_type');
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c));
    req.on('end', () => {
      void (async () => {
        const form = new URLSearchParams(body);
        if (req.url === '/token') return handleToken(form, res);
        if (req.url === '/devicecode') {
          if (form.get('client_id') !== o.clientId) return json(res, 400, { error: 'invalid_client' });
          const code = token('dc');
          deviceCodes.add(code);
          return json(res, 200, { device_code: code, user_code: 'WDJB-MJHT', verification_uri: `${provider.url}/device`, expires_in: 900, interval: o.deviceInterval ?? 0 });
        }
        if (req.url === '/introspect') {
          const at = form.get('token') ?? '';
          const known = accessTokens.get(at);
          const active = known !== undefined && known.expiresAt > Date.now();
          provider.introspections.push({ token: at, active });
          await provider.onIntrospect?.(at);
          return json(res, 200, active ? { active: true, username: o.user } : { active: false });
        }
        json(res, 404, { error: 'not_found' });
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  provider.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider.tokenUrl = `${provider.url}/token`;
  provider.deviceUrl = `${provider.url}/devicecode`;
  provider.introspectionUrl = `${provider.url}/introspect`;
  return provider;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
