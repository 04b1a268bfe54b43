import { BadRequestException, ForbiddenException, NotFoundException } from '@nestjs/common';
import { ForgetMemoryArgs } from './agent-tool-args';
import type { AgentToolImplementations } from './agent-tool-implementations';
import { AgentToolbox, type AgentToolCaller } from './agent-toolbox';

const agent: AgentToolCaller = {
  principal: { userId: 'chat-web', workspaceId: 'w1', roles: ['agent'] },
  workspaceId: 'w1',
  userId: 'alice',
};

/** The registry's own rules, around one tool whose code records what it was given. */
function toolbox() {
  const calls: unknown[] = [];
  const implementations = {
    all: () => [
      {
        name: 'forget_memory' as const,
        args: ForgetMemoryArgs,
        run: (args: object, caller: AgentToolCaller) => {
          calls.push({ args, caller });
          return Promise.resolve({ data: { ok: true }, text: 'done' });
        },
      },
    ],
  } as unknown as AgentToolImplementations;
  return { box: new AgentToolbox(implementations), calls };
}

describe('AgentToolbox', () => {
  const memoryId = '0b7d4c52-7f1e-4c53-9d0e-3a4f4c2b9e11';

  it('lists the definitions of the tools it has code for', () => {
    expect(
      toolbox()
        .box.definitions()
        .map((tool) => tool.name),
    ).toEqual(['forget_memory']);
  });

  it('runs a tool with its arguments validated into the DTO', async () => {
    const { box, calls } = toolbox();
    await expect(box.call('forget_memory', { memoryId }, agent)).resolves.toEqual({
      data: { ok: true },
      text: 'done',
    });
    expect(calls).toEqual([{ args: expect.any(ForgetMemoryArgs), caller: agent }]);
  });

  it('answers 404 for a tool it does not have', async () => {
    await expect(toolbox().box.call('send_email', {}, agent)).rejects.toThrow(NotFoundException);
  });

  it('answers 400 with the DTO messages, for arguments that are not an object or break a rule', async () => {
    const { box, calls } = toolbox();
    await expect(box.call('forget_memory', { memoryId: 'x' }, agent)).rejects.toThrow(
      new BadRequestException('memoryId must be a UUID'),
    );
    await expect(box.call('forget_memory', { memoryId, more: 1 }, agent)).rejects.toThrow(
      BadRequestException,
    );
    await expect(box.call('forget_memory', 'memoryId', agent)).rejects.toThrow(
      new BadRequestException('The arguments of a tool call must be a JSON object'),
    );
    await expect(box.call('forget_memory', undefined, agent)).rejects.toThrow(BadRequestException);
    expect(calls).toEqual([]);
  });

  it('checks the caller itself (MCP comes in past the route guards): role agent, own workspace', async () => {
    const { box, calls } = toolbox();
    const user = { ...agent, principal: { ...agent.principal, roles: ['user' as const] } };
    await expect(box.call('forget_memory', { memoryId }, user)).rejects.toThrow(ForbiddenException);
    await expect(
      box.call('forget_memory', { memoryId }, { ...agent, workspaceId: 'w2' }),
    ).rejects.toThrow(new ForbiddenException('The token is for workspace w1, not w2'));
    await expect(
      box.call('forget_memory', { memoryId }, { ...agent, userId: 'a/b' }),
    ).rejects.toThrow(BadRequestException);
    expect(calls).toEqual([]);
  });
});
