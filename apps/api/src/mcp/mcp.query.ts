import { IsIdentifier } from '../http/identifier';

/** `/mcp?userId=`: a client that acts for one person (a desktop client) names them once, here. */
export class McpQuery {
  @IsIdentifier({ optional: true })
  userId?: string;
}
