import {
  BadRequestException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { isIdentifier } from '@engram/domain';
import {
  AGENT_TOOLS,
  type AgentToolDefinition,
  type JsonSchemaObject,
} from '@engram/prompt-blocks';
import {
  AgentToolImplementations,
  type AgentToolImplementation,
} from './agent-tool-implementations';
import type { AgentToolCaller, AgentToolResult } from './agent-tool-caller';
import { validateArgs } from './validate-args';

export type { AgentToolDefinition, JsonSchemaObject };
export type { AgentToolCaller, AgentToolResult };

/**
 * The agent tools, one registry for every surface (the HTTP route `POST …/tools/{name}`, the MCP
 * server): it validates the arguments with the HTTP bodies' DTOs and checks the caller itself,
 * since MCP comes in past the route guards. Errors are the routes' `HttpException`s (400, 403,
 * 404, 409, 503 with Retry-After).
 */
@Injectable()
export class AgentToolbox {
  private readonly byName: ReadonlyMap<string, AgentToolImplementation>;

  constructor(implementations: AgentToolImplementations) {
    this.byName = new Map(implementations.all().map((tool) => [tool.name, tool]));
  }

  definitions(): AgentToolDefinition[] {
    return AGENT_TOOLS.filter((tool) => this.byName.has(tool.name));
  }

  async call(name: string, args: unknown, caller: AgentToolCaller): Promise<AgentToolResult> {
    const tool = this.byName.get(name);
    if (!tool) {
      throw new NotFoundException(`No tool ${name}; GET /v1/tools lists them`);
    }
    authorize(caller);
    return tool.run(await validateArgs(tool.args, args), caller);
  }
}

/** What the route guards check for HTTP (role agent, the token's workspace), for every surface. */
function authorize(caller: AgentToolCaller): void {
  if (!caller.principal.roles.includes('agent')) {
    throw new ForbiddenException('The agent tools need the role agent');
  }
  if (caller.workspaceId !== caller.principal.workspaceId) {
    throw new ForbiddenException(
      `The token is for workspace ${caller.principal.workspaceId}, not ${caller.workspaceId}`,
    );
  }
  if (!isIdentifier(caller.userId)) {
    throw new BadRequestException('userId must be 1-128 characters of A-Z a-z 0-9 . _ : -');
  }
}
