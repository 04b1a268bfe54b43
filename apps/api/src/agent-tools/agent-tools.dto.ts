import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { TOOL_FORMATS, type ToolFormat } from '@engram/prompt-blocks';
import { ToolFunctionResponse } from '../actions/recall-actions.dto';

export class ToolsQuery {
  @ApiPropertyOptional({
    enum: TOOL_FORMATS,
    default: 'openai',
    description:
      'openai: chat completions function tools; anthropic: messages API tools (input_schema); mcp: tools/list entries (inputSchema)',
  })
  @IsOptional()
  @IsIn(TOOL_FORMATS, { message: `format must be one of: ${TOOL_FORMATS.join(', ')}` })
  format?: ToolFormat;
}

const SCHEMA = { type: 'object', additionalProperties: true, description: 'JSON Schema' } as const;

export class OpenAiToolResponse {
  @ApiProperty({ enum: ['function'] }) type!: 'function';
  @ApiProperty({ type: ToolFunctionResponse }) function!: ToolFunctionResponse;
}

export class AnthropicToolResponse {
  @ApiProperty({ example: 'get_context' }) name!: string;
  @ApiProperty() description!: string;
  @ApiProperty(SCHEMA) input_schema!: Record<string, unknown>;
}

export class McpToolResponse {
  @ApiProperty({ example: 'get_context' }) name!: string;
  @ApiProperty() description!: string;
  @ApiProperty(SCHEMA) inputSchema!: Record<string, unknown>;
}
