import { ApiProperty } from '@nestjs/swagger';
import { ActionViewResponse } from '../actions/action-view.response';

export class LiveWindowMessageResponse {
  @ApiProperty() messageId!: string;
  @ApiProperty({ enum: ['user', 'assistant'] }) role!: 'user' | 'assistant';
  @ApiProperty({ description: 'Verbatim' }) text!: string;
  @ApiProperty({ format: 'date-time' }) occurredAt!: string;
  @ApiProperty() channel!: string;
}

export class ContextMemoryResponse {
  @ApiProperty() memoryId!: string;
  @ApiProperty() content!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) dueAt!: string | null;
}

/** The memories in the prompt, by kind (a kind with none is left out), in prompt order. */
export class ContextMemoriesByType {
  @ApiProperty({ type: [ContextMemoryResponse], required: false })
  identity?: ContextMemoryResponse[];
  @ApiProperty({ type: [ContextMemoryResponse], required: false })
  preference?: ContextMemoryResponse[];
  @ApiProperty({ type: [ContextMemoryResponse], required: false })
  ongoing?: ContextMemoryResponse[];
  @ApiProperty({ type: [ContextMemoryResponse], required: false })
  commitment?: ContextMemoryResponse[];
  @ApiProperty({ type: [ContextMemoryResponse], required: false }) fact?: ContextMemoryResponse[];
  @ApiProperty({ type: [ContextMemoryResponse], required: false })
  context?: ContextMemoryResponse[];
}

export class ContextMemories {
  @ApiProperty({ type: ContextMemoriesByType }) byType!: ContextMemoriesByType;
}

export class ContextTokens {
  @ApiProperty({ description: 'Tokens of the system prompt' }) used!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'maxTokens, or null' })
  budget!: number | null;
  @ApiProperty({ enum: ['o200k_base', 'cl100k_base'] }) tokenizer!: string;
}

export class ContextTrimmed {
  @ApiProperty({ description: 'Live-window messages left out, oldest first' })
  liveWindowMessages!: number;
  @ApiProperty({ description: 'Memories left out, least used first' }) memories!: number;
  @ApiProperty() rollingSummary!: boolean;
  @ApiProperty() recentActions!: number;
  @ApiProperty() identityCard!: boolean;
}

/** What an agent puts in its prompt for its next turn (GET …/context). */
export class AgentContextResponse {
  @ApiProperty({ type: [LiveWindowMessageResponse], description: 'Oldest first' })
  liveWindow!: LiveWindowMessageResponse[];
  @ApiProperty({ description: "'' when left out" }) rollingSummary!: string;
  @ApiProperty({ type: ContextMemories }) memories!: ContextMemories;
  @ApiProperty({ description: "Markdown; '' when left out or memory is off" })
  identityCard!: string;
  @ApiProperty({ type: [ActionViewResponse], description: 'Newest first' })
  recentActions!: ActionViewResponse[];
  @ApiProperty({ description: 'The blocks above rendered for the system prompt' })
  systemPrompt!: string;
  @ApiProperty({ type: ContextTokens }) tokens!: ContextTokens;
  @ApiProperty({ type: ContextTrimmed }) trimmed!: ContextTrimmed;
  @ApiProperty({ type: [String], description: 'The memories shown, in prompt order' })
  usedMemoryIds!: string[];
  @ApiProperty({ enum: ['enabled', 'agent_disabled', 'user_disabled', 'user_paused'] })
  memoryStatus!: string;
}

export class ChatMessageResponse {
  @ApiProperty({ enum: ['system', 'user', 'assistant'] }) role!: 'system' | 'user' | 'assistant';
  @ApiProperty() content!: string;
}

/** The context as chat messages (GET …/context?format=messages). */
export class AgentContextMessagesResponse {
  @ApiProperty({
    type: [ChatMessageResponse],
    description:
      'The system block (every block but the live window), then the live window as user and assistant turns, oldest first, verbatim: the `messages` of OpenAI chat completions as they are. Anthropic takes the first one, the system message, as the `system` parameter and the others as `messages`.',
  })
  messages!: ChatMessageResponse[];
  @ApiProperty({ type: ContextTokens, description: 'Of the system prompt with the live window' })
  tokens!: ContextTokens;
  @ApiProperty({ type: ContextTrimmed }) trimmed!: ContextTrimmed;
  @ApiProperty({ type: [String], description: 'The memories shown, in prompt order' })
  usedMemoryIds!: string[];
  @ApiProperty({ enum: ['enabled', 'agent_disabled', 'user_disabled', 'user_paused'] })
  memoryStatus!: string;
}
