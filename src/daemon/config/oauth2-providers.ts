// Endpoints and scopes of the identity providers docdrop knows by name, so a mailbox of Microsoft 365 or
// Gmail needs only its client id (and tenant). Any other provider is written out with the auth keys.

export type OAuth2Provider = 'microsoft365' | 'google';

export interface ProviderPreset {
  token_url: string;
  device_authorization_url: string;
  /** Delegated access to one user's mailbox (refresh-token grant); offline_access asks for a refresh token. */
  scope: string;
  /** App-only access (client-credentials grant); undefined when the provider has none for IMAP. */
  app_scope?: string;
}

export function providerPreset(provider: OAuth2Provider, tenant: string): ProviderPreset {
  if (provider === 'microsoft365') {
    const base = `https://login.microsoftonline.com/${encodeURIComponent(tenant)}/oauth2/v2.0`;
    return {
      token_url: `${base}/token`,
      device_authorization_url: `${base}/devicecode`,
      scope: 'https://outlook.office365.com/IMAP.AccessAsUser.All offline_access',
      app_scope: 'https://outlook.office365.com/.default',
    };
  }
  // Google issues long-lived refresh tokens without offline_access; app-only IMAP needs a service account
  // with domain-wide delegation (a signed JWT), which is not the client-credentials grant.
  return {
    token_url: 'https://oauth2.googleapis.com/token',
    device_authorization_url: 'https://oauth2.googleapis.com/device/code',
    scope: 'https://mail.google.com/',
  };
}
