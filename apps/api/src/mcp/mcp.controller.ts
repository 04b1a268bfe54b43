import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Controller, Delete, Get, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CurrentPrincipal, Roles, type Principal } from '@engram/auth';
import { createEngramMcpServer } from '@engram/mcp';
import { AgentToolbox } from '../agent-tools/agent-toolbox';
import { ErrorFilter } from '../http/error.filter';
import { correlationIdOf } from '../http/request-context';
import { McpQuery } from './mcp.query';
import { toolboxTools } from './toolbox-tools';
import { WrittenPositions } from './written-positions';

/**
 * The agent tools over MCP's Streamable HTTP, behind the same guard as every route (role agent; the
 * workspace is the token's). Excluded from the OpenAPI document: it is JSON-RPC, described by the MCP
 * specification, with no REST resource or JSON response schema to declare.
 */
@ApiExcludeController()
@Controller('mcp')
@Roles('agent')
export class McpController {
  private readonly errors = new ErrorFilter();

  constructor(
    private readonly toolbox: AgentToolbox,
    private readonly positions: WrittenPositions,
  ) {}

  /**
   * Stateless: a server and a transport for each request, answered in JSON, so that any API process
   * answers any request; only the positions of the caller's writes are kept (WrittenPositions).
   */
  @Post()
  async post(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @CurrentPrincipal() principal: Principal,
    @Query() query: McpQuery,
  ): Promise<void> {
    const tools = toolboxTools(
      this.toolbox,
      {
        principal,
        workspaceId: principal.workspaceId,
        correlationId: correlationIdOf(request.headers),
      },
      this.errors,
      this.positions,
    );
    const server = createEngramMcpServer(tools, query.userId ? { userId: query.userId } : {});
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    // The transport answers on the Node response; Fastify leaves it alone (hijack).
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    // The API's JSON parser has read the body already (256 kB at most).
    await transport.handleRequest(request.raw, reply.raw, request.body);
  }

  /** No stream of server-initiated messages: a stateless server has none to send. */
  @Get()
  stream(@Res() reply: FastifyReply, @Query() _query: McpQuery): void {
    notAllowed(reply);
  }

  /** No session to end: every request stands alone. */
  @Delete()
  end(@Res() reply: FastifyReply, @Query() _query: McpQuery): void {
    notAllowed(reply);
  }
}

/** What the SDK's clients expect from a stateless server (they carry on with POSTs alone). */
function notAllowed(reply: FastifyReply): void {
  reply.hijack();
  const response: ServerResponse = reply.raw;
  response.writeHead(405, { Allow: 'POST', 'Content-Type': 'application/json' });
  response.end(
    JSON.stringify({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Method not allowed: this server is stateless, POST only' },
      id: null,
    }),
  );
}
