// A real OpenID Connect provider (oidc-provider, OpenID-certified) for the sign-in browser tests.
// Usage: node idp.mjs PORT CLIENT_ID CLIENT_SECRET REDIRECT_URI
// Serves http://127.0.0.1:PORT only. Known users: alice and bob (any password); their claims are below.
import Provider from 'oidc-provider';

const [port, clientId, clientSecret, redirectUri] = process.argv.slice(2);
const USERS = {
  alice: { name: 'Alice Andersson', email: 'alice@lab.example', email_verified: true },
  bob: { name: 'Bob Brennan', email: 'bob@lab.example', email_verified: true },
  mallory: { name: 'Mallory Outsider', email: 'mallory@elsewhere.example', email_verified: true },
};

const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [{
    client_id: clientId,
    client_secret: clientSecret,
    redirect_uris: [redirectUri],
    post_logout_redirect_uris: [redirectUri],
    grant_types: ['authorization_code'],
    response_types: ['code'],
  }],
  async findAccount(ctx, id) {
    if (!USERS[id]) return undefined;
    return { accountId: id, async claims() { return { sub: id, ...USERS[id] }; } };
  },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  conformIdTokenClaims: false,
  cookies: { keys: ['test-only-cookie-signing-key'] },
  features: { devInteractions: { enabled: true } },
  // A first-party app: consent is implied, as a lab's identity provider would configure it.
  async loadExistingGrant(ctx) {
    const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    if (grantId) return ctx.oidc.provider.Grant.find(grantId);
    const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope('openid email profile');
    await grant.save();
    return grant;
  },
});
provider.listen(Number(port), '127.0.0.1', () => console.log('ready'));
