import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isIdentifier } from '@engram/domain';
import {
  ToolCallFailed,
  ToolCallRefused,
  createEngramMcpServer,
  type EngramTools,
  type McpToolDefinition,
} from '@engram/mcp';

export const MCP_USAGE =
  'mcp                the agent tools over MCP on stdin/stdout, for desktop clients (env: ENGRAM_URL, ENGRAM_TOKEN, ENGRAM_USER; ENGRAM_WORKSPACE with a service key)';

/** Where the tools run and as whom, from the environment. */
export type McpSettings = Readonly<{
  url: string;
  token: string;
  workspaceId: string;
  userId?: string;
}>;

type Environment = Readonly<Record<string, string | undefined>>;

export function mcpSettings(env: Environment): McpSettings {
  const url = (env.ENGRAM_URL || 'http://localhost:3000').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(url)) throw new Error(`ENGRAM_URL must be an http(s) URL: ${url}`);
  const token = env.ENGRAM_TOKEN;
  if (!token) {
    throw new Error(
      'ENGRAM_TOKEN is required: a token with the role agent (npm run token -- --ws W --user AGENT --roles agent) or a service key',
    );
  }
  const workspaceId = env.ENGRAM_WORKSPACE || workspaceOfJwt(token);
  if (!isIdentifier(workspaceId)) {
    throw new Error(
      "ENGRAM_WORKSPACE is required when ENGRAM_TOKEN is not a JWT carrying the workspace (its 'ws' claim)",
    );
  }
  const userId = env.ENGRAM_USER || undefined;
  if (userId !== undefined && !isIdentifier(userId)) {
    throw new Error('ENGRAM_USER must be 1-128 characters of A-Z a-z 0-9 . _ : -');
  }
  return { url, token, workspaceId, ...(userId ? { userId } : {}) };
}

/** The `ws` claim of a JWT, read without verifying it (the API verifies every request). */
function workspaceOfJwt(token: string): string | undefined {
  const payload = token.split('.')[1];
  if (token.split('.').length !== 3 || !payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
    const ws = (claims as { ws?: unknown } | null)?.ws;
    return typeof ws === 'string' ? ws : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The tools of a running Engram, over its HTTP API: listed once from `GET /v1/tools?format=mcp`,
 * each call a `POST …/tools/{name}` that reads the client's own writes (`?minPosition=`). A 4xx is
 * the call's fault and goes back to the model; a 401 or 403 (the token), a 5xx or no answer are
 * failures it cannot fix.
 */
export function httpTools(settings: McpSettings, fetchFn: typeof fetch = fetch): EngramTools {
  let listed: Promise<readonly McpToolDefinition[]> | undefined;
  // One client, one process: what it wrote for a user, its next reads for that user see.
  const written = new Map<string, number>();
  const request = async (path: string, init: RequestInit): Promise<unknown> => {
    let response: Response;
    try {
      response = await fetchFn(`${settings.url}${path}`, init);
    } catch (error) {
      throw new ToolCallFailed(
        `Engram at ${settings.url} is out of reach: ${(error as Error).message}`,
      );
    }
    const body: unknown = await response.json().catch(() => undefined);
    if (response.ok) return body;
    const message = (body as { message?: unknown } | undefined)?.message;
    const said = typeof message === 'string' ? message : `HTTP ${response.status}`;
    const isTheCallsFault =
      response.status >= 400 && response.status < 500 && ![401, 403].includes(response.status);
    throw isTheCallsFault
      ? new ToolCallRefused(said, response.status)
      : new ToolCallFailed(`Engram answered ${response.status}: ${said}`, response.status);
  };
  const list = async (): Promise<readonly McpToolDefinition[]> => {
    const tools = await request('/v1/tools?format=mcp', { method: 'GET' });
    if (!Array.isArray(tools)) throw new ToolCallFailed('Engram listed no tools');
    return tools as McpToolDefinition[];
  };
  return {
    listTools: () => {
      listed ??= list().catch((error: unknown) => {
        listed = undefined; // asked again at the next listing
        throw error;
      });
      return listed;
    },
    callTool: async (name, args, userId) => {
      const position = written.get(userId);
      const path =
        `/v1/workspaces/${settings.workspaceId}/users/${userId}/tools/${encodeURIComponent(name)}` +
        (position === undefined ? '' : `?minPosition=${position}`);
      // The route answers the tool's data with `text` beside it.
      const { text, ...data } = (await request(path, {
        method: 'POST',
        headers: { authorization: `Bearer ${settings.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(args),
      })) as Record<string, unknown>;
      if (typeof data.position === 'number' && data.position > (position ?? -1)) {
        written.set(userId, data.position);
      }
      return { data, text: typeof text === 'string' ? text : '' };
    },
  };
}

/**
 * `engram mcp`: an MCP server on stdin/stdout for a desktop client, forwarding to a running Engram.
 * Stdout carries MCP messages only; what it has to say goes to stderr.
 */
export async function mcpCommand(env: Environment, say: (message: string) => void): Promise<void> {
  const settings = mcpSettings(env);
  const server = createEngramMcpServer(
    httpTools(settings),
    settings.userId ? { userId: settings.userId } : {},
  );
  const transport = new StdioServerTransport();
  process.stdin.once('end', () => void server.close());
  await server.connect(transport);
  say(
    `engram mcp: the tools of ${settings.url} (workspace ${settings.workspaceId}${settings.userId ? `, for ${settings.userId}` : ''}) on stdio`,
  );
}
