import { Body, Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { Public, defaultTokenLifetime, mintToken } from '@engram/auth';
import type { Role } from '@engram/domain';
import { RUNTIME, type Runtime } from '@engram/platform';
import { DEMO_USERS, DEMO_WORKSPACE } from './demo-users';

const DEMO_USER_IDS = DEMO_USERS.map((user) => user.userId);

export class DemoUser {
  @ApiProperty() userId!: string;
  @ApiProperty({ type: [String] }) roles!: Role[];
}

export class DemoUsersResponse {
  @ApiProperty() workspaceId!: string;
  @ApiProperty({ type: [DemoUser] }) users!: DemoUser[];
}

export class DevTokenBody {
  @ApiProperty({ enum: DEMO_USER_IDS })
  @IsIn(DEMO_USER_IDS, { message: `userId must be one of: ${DEMO_USER_IDS.join(', ')}` })
  userId!: string;
}

export class DevTokenResponse extends DemoUser {
  @ApiProperty() workspaceId!: string;
  @ApiProperty() token!: string;
}

/**
 * The console's development shortcut: tokens for the fixed demo users, signed with the HS256 secret.
 * Registered only in the embedded default with its generated secret on a loopback listener (see
 * ConsoleModule); elsewhere the route does not exist (404). It reads no data: it only signs what
 * anyone could get from `npm run token` on the same machine.
 */
@ApiTags('development')
@Public()
@Controller('v1/dev/tokens')
export class DevTokensController {
  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {}

  @Get()
  @ApiOkResponse({ type: DemoUsersResponse })
  users(): DemoUsersResponse {
    return {
      workspaceId: DEMO_WORKSPACE,
      users: DEMO_USERS.map((user) => ({ userId: user.userId, roles: [...user.roles] })),
    };
  }

  @Post()
  @HttpCode(200)
  @ApiOkResponse({ type: DevTokenResponse })
  async mint(@Body() body: DevTokenBody): Promise<DevTokenResponse> {
    const user = DEMO_USERS.find((candidate) => candidate.userId === body.userId)!;
    const token = await mintToken(
      this.runtime.jwtSecret!,
      { userId: user.userId, workspaceId: DEMO_WORKSPACE, roles: user.roles },
      defaultTokenLifetime(this.runtime.config.jwt.maxAgeSeconds),
    );
    return { workspaceId: DEMO_WORKSPACE, userId: user.userId, roles: [...user.roles], token };
  }
}
