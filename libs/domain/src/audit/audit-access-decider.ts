import { assertNever, type Decider } from '../decider';
import type { AuditAccessKind, AuditAccessRecorded } from './audit-events';

export type RecordAuditAccess = Readonly<{
  type: 'RecordAuditAccess';
  access: AuditAccessKind;
  auditorId: string;
  asOf?: string | undefined;
}>;

/**
 * The audited user's daily audit stream is a log of who looked: nothing refuses an entry, so the
 * state stays empty and the stream is appended to without being read (`appendOnly`).
 */
export const auditAccessDecider: Decider<RecordAuditAccess, AuditAccessRecorded, null> = {
  initialState: () => null,
  decide: (command) => [
    {
      type: 'AuditAccessRecorded',
      data: {
        access: command.access,
        auditorId: command.auditorId,
        ...(command.asOf === undefined ? {} : { asOf: command.asOf }),
      },
    },
  ],
  evolve: (state, event) => {
    switch (event.type) {
      case 'AuditAccessRecorded':
        return state;
      default:
        return assertNever(event.type);
    }
  },
};
