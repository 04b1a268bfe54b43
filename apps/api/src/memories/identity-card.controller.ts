import { Controller, Get, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@engram/auth';
import { findIdentityCard, identityCardsProjection } from '@engram/projections';
import { ReadModels } from '../read-models/read-models';
import { ReadQuery } from '../read-models/read-query';

export class IdentityCardResponse {
  @ApiProperty({
    description: 'Markdown synthesis of the approved memories; empty before the first one',
  })
  markdown!: string;
  @ApiProperty() memoryCount!: number;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' }) generatedAt!:
    string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) model!: string | null;
}

@ApiTags('me')
@ApiBearerAuth()
@Controller('v1/me/identity-card')
export class IdentityCardController {
  constructor(private readonly readModels: ReadModels) {}

  @Get()
  @ApiOkResponse({ type: IdentityCardResponse })
  async get(
    @CurrentPrincipal() me: Principal,
    @Query() query: ReadQuery,
  ): Promise<IdentityCardResponse> {
    await this.readModels.catchUp(me, [identityCardsProjection.name], query);
    const card = await this.readModels.read(me, (manager) =>
      findIdentityCard(manager, me.workspaceId, me.userId),
    );
    return {
      markdown: card?.markdown ?? '',
      memoryCount: card?.memoryCount ?? 0,
      generatedAt: card?.generatedAt?.toISOString() ?? null,
      model: card?.model ?? null,
    };
  }
}
