import { BadRequestException, type ExecutionContext } from '@nestjs/common';
import { ActivityController } from '../actions/activity.controller';
import { ContextController } from '../context/context.controller';
import { MessagesController } from '../messages/messages.controller';
import { ReviewController } from '../memories/review.controller';
import { DeclaredQueryGuard, declaredQueryParameters } from './declared-query.guard';

function contextOf(
  controller: new (...args: never[]) => object,
  handler: string,
  query: Record<string, unknown>,
): ExecutionContext {
  const method = (controller.prototype as Record<string, unknown>)[handler] as () => void;
  return {
    getClass: () => controller,
    getHandler: () => method,
    switchToHttp: () => ({ getRequest: () => ({ query }) }),
  } as unknown as ExecutionContext;
}

describe('declared query parameters', () => {
  it('reads them from the handler’s query DTO, inherited ones included, and none without one', () => {
    expect([...declaredQueryParameters(ReviewController, 'queue')].sort()).toEqual([
      'cursor',
      'kind',
      'limit',
      'minConfidence',
      'minPosition',
      'status',
      'userId',
    ]);
    expect([...declaredQueryParameters(ActivityController, 'feed')].sort()).toEqual([
      'cursor',
      'limit',
      'locale',
      'minPosition',
    ]);
    expect([...declaredQueryParameters(ContextController, 'context')].sort()).toEqual([
      'agentId',
      'excludeMessageId',
      'format',
      'locale',
      'maxTokens',
      'minPosition',
      'sessionId',
    ]);
    expect(declaredQueryParameters(MessagesController, 'record').size).toBe(0);
  });

  it('refuses an undeclared parameter the same way with or without a query DTO', () => {
    const guard = new DeclaredQueryGuard();
    expect(() => guard.canActivate(contextOf(ActivityController, 'feed', { limt: '5' }))).toThrow(
      new BadRequestException(
        'query parameter limt is not accepted here (accepted: locale, minPosition, cursor, limit)',
      ),
    );
    expect(() =>
      guard.canActivate(contextOf(MessagesController, 'record', { debug: '1' })),
    ).toThrow(
      new BadRequestException('query parameter debug is not accepted here (it takes none)'),
    );
  });

  it('lets declared parameters through to the handler', () => {
    const guard = new DeclaredQueryGuard();
    expect(
      guard.canActivate(contextOf(ActivityController, 'feed', { cursor: '9', limit: '5' })),
    ).toBe(true);
  });
});
