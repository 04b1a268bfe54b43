import { reportMemoryStatus, storedStatusesOf } from './reported-status';

describe('reported memory status (seed 002: expired candidates are rejected automatically)', () => {
  it('reports an expired candidate as rejected with the reason expired', () => {
    expect(reportMemoryStatus('expired')).toEqual({ status: 'rejected', reason: 'expired' });
    expect(reportMemoryStatus('expired', 'expired')).toEqual({
      status: 'rejected',
      reason: 'expired',
    });
  });

  it("reports a person's rejection with their reason, if they gave one", () => {
    expect(reportMemoryStatus('rejected', 'not durable')).toEqual({
      status: 'rejected',
      reason: 'not durable',
    });
    expect(reportMemoryStatus('rejected', null)).toEqual({ status: 'rejected' });
  });

  it('reports every other status as it is', () => {
    for (const status of ['pending', 'approved', 'deleted', 'evicted'] as const) {
      expect(reportMemoryStatus(status)).toEqual({ status });
    }
  });

  it('filters rejected as rejected and expired; expired (earlier clients) as expired only', () => {
    expect(storedStatusesOf('rejected')).toEqual(['rejected', 'expired']);
    expect(storedStatusesOf('expired')).toEqual(['expired']);
    expect(storedStatusesOf('approved')).toEqual(['approved']);
  });
});
