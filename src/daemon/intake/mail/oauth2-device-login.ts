// The first refresh token of an OAuth2 mailbox, by the device authorization grant (RFC 8628): the
// provider gives a code, the person enters it at the provider's page in any browser and signs in, while
// we poll the token endpoint. No callback server, so it works over SSH on a headless machine.
import type { Logger } from '../../../shared/logger.js';
import { atomicWriteFile } from '../../../shared/atomic-write.js';
import { realScheduler, sleep, type Scheduler } from '../../../shared/scheduler.js';
import { MailLoginError, requestDeviceCode, requestToken, type DeviceAuthorization } from './oauth2-endpoint.js';
import type { OAuth2Auth } from './oauth2-token.js';

const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** RFC 8628 3.2: the interval when the provider names none, and 3.5: what slow_down adds. */
const DEFAULT_INTERVAL_S = 5;
const SLOW_DOWN_S = 5;

export interface DeviceLoginOptions {
  mailbox: string;
  /** Shows the person where to go and which code to enter. */
  prompt(authorization: DeviceAuthorization): void;
  log?: Logger;
  scheduler?: Scheduler;
  signal?: AbortSignal;
}

/** Runs the flow and stores the refresh token in auth.refresh_token_file (mode 600); returns that path. */
export async function deviceLogin(auth: OAuth2Auth, o: DeviceLoginOptions): Promise<string> {
  const scheduler = o.scheduler ?? realScheduler;
  const file = auth.refresh_token_file;
  if (auth.grant !== 'refresh_token' || file === undefined) {
    throw new MailLoginError(`mailbox ${o.mailbox} uses the client-credentials grant (app-only, no refresh_token_file): it needs no login`, false);
  }
  if (auth.device_authorization_url === undefined) {
    throw new MailLoginError(`mailbox ${o.mailbox}: set auth.device_authorization_url (or a provider) to log in with a device code`, false);
  }
  const device = await requestDeviceCode(auth.device_authorization_url, { client_id: auth.client_id, scope: auth.scope }, o.signal);
  o.prompt(device);
  const deadline = scheduler.now() + device.expires_in * 1000;
  let intervalS = device.interval ?? DEFAULT_INTERVAL_S;
  for (;;) {
    await sleep(intervalS * 1000, o.signal, scheduler);
    if (scheduler.now() > deadline) throw new MailLoginError('the code expired before the sign-in was completed: run the command again', true, 'expired_token');
    try {
      const res = await requestToken(
        auth.token_url,
        { grant_type: DEVICE_CODE_GRANT, device_code: device.device_code, client_id: auth.client_id, client_secret: auth.client_secret },
        o.signal,
      );
      if (res.refresh_token === undefined) {
        throw new MailLoginError('the provider signed in but issued no refresh token: add offline_access to auth.scope (Microsoft) and run the command again', true);
      }
      await atomicWriteFile(file, `${res.refresh_token}\n`, { mode: 0o600 });
      return file;
    } catch (err) {
      if (!(err instanceof MailLoginError)) throw err;
      if (err.code === 'authorization_pending') continue;
      if (err.code === 'slow_down') {
        intervalS += SLOW_DOWN_S;
        o.log?.debug({ intervalS }, 'the provider asked to poll more slowly');
        continue;
      }
      if (err.code === 'expired_token') throw new MailLoginError('the code expired before the sign-in was completed: run the command again', true, err.code);
      if (err.code === 'access_denied') throw new MailLoginError('the sign-in was declined at the provider', true, err.code);
      throw err;
    }
  }
}
