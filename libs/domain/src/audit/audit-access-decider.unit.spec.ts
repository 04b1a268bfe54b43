import { deciderSpec } from '../../../../test/support/decider-spec';
import { auditAccessDecider } from './audit-access-decider';

describe('auditAccessDecider', () => {
  const spec = deciderSpec(auditAccessDecider);

  it('records every access, whatever the day already holds', () => {
    spec
      .given([{ type: 'AuditAccessRecorded', data: { access: 'export', auditorId: 'dpo' } }])
      .when({
        type: 'RecordAuditAccess',
        access: 'as_of',
        auditorId: 'dpo',
        asOf: '2026-06-01T00:00:00.000Z',
      })
      .then([
        {
          type: 'AuditAccessRecorded',
          data: { access: 'as_of', auditorId: 'dpo', asOf: '2026-06-01T00:00:00.000Z' },
        },
      ]);
  });

  it('leaves asOf out of an export', () => {
    spec
      .given([])
      .when({ type: 'RecordAuditAccess', access: 'export', auditorId: 'dpo' })
      .then([{ type: 'AuditAccessRecorded', data: { access: 'export', auditorId: 'dpo' } }]);
  });
});
