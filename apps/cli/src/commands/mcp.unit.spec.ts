import { mcpSettings } from './mcp';

const jwt = (claims: object) =>
  `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.signature`;

describe('engram mcp settings, from the environment', () => {
  it('defaults to the local API and reads the workspace from a JWT', () => {
    const token = jwt({ sub: 'desktop', ws: 'demo', roles: ['agent'] });
    expect(mcpSettings({ ENGRAM_TOKEN: token })).toEqual({
      url: 'http://localhost:3000',
      token,
      workspaceId: 'demo',
    });
  });

  it('takes the URL without its trailing slash, the user, and the workspace of a service key', () => {
    expect(
      mcpSettings({
        ENGRAM_URL: 'https://engram.example/',
        ENGRAM_TOKEN: 'egk_1_secret',
        ENGRAM_WORKSPACE: 'w1',
        ENGRAM_USER: 'alice',
      }),
    ).toEqual({
      url: 'https://engram.example',
      token: 'egk_1_secret',
      workspaceId: 'w1',
      userId: 'alice',
    });
  });

  it('says what is missing or wrong', () => {
    expect(() => mcpSettings({})).toThrow(/ENGRAM_TOKEN is required/);
    expect(() => mcpSettings({ ENGRAM_TOKEN: 'egk_1_secret' })).toThrow(
      /ENGRAM_WORKSPACE is required/,
    );
    expect(() => mcpSettings({ ENGRAM_TOKEN: jwt({ ws: 'w1' }), ENGRAM_URL: 'ftp://x' })).toThrow(
      /ENGRAM_URL must be an http\(s\) URL/,
    );
    expect(() => mcpSettings({ ENGRAM_TOKEN: jwt({ ws: 'w1' }), ENGRAM_USER: 'a b' })).toThrow(
      /ENGRAM_USER must be/,
    );
  });
});
