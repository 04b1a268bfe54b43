import { ApiProperty, ApiPropertyOptional, IntersectionType, OmitType } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { PageQuery } from '../http/page-query';
import { ReadQuery } from '../read-models/read-query';
import { ActionViewResponse } from './action-view.response';

/** The arguments of `list_pending_actions`: a page (no minPosition: the caller gives that). */
export class PendingActionsArgs extends OmitType(PageQuery, ['minPosition'] as const) {}

/** `?status=pending`: the one list of actions there is (the block's window is not enough to confirm elsewhere). */
export class PendingActionsQuery extends IntersectionType(PendingActionsArgs, ReadQuery) {
  @ApiProperty({ enum: ['pending'], description: 'The only list of actions: those still pending' })
  @IsIn(['pending'], { message: 'status must be pending' })
  status!: 'pending';
}

export class PendingActionsResponse {
  @ApiProperty({ type: [ActionViewResponse], description: 'Newest first' })
  items!: ActionViewResponse[];
  @ApiPropertyOptional({ type: String, nullable: true }) nextCursor!: string | null;
}
