import type { VisitPhase, VisitRole, VisitState } from '@telemedicina/shared/visits';
import { describe, expect, it } from 'vitest';
import { screenFor } from './phase-screen';

function state(phase: VisitPhase, role: VisitRole, canHost = role === 'doctor'): VisitState {
  return {
    appointmentId: 'a-1',
    status: 'confirmed',
    phase,
    startsAt: '',
    endsAt: '',
    checkInOpensAt: '',
    checkedInAt: null,
    admittedAt: null,
    startedAt: null,
    endedAt: null,
    doctor: { id: 'd', name: 'D', timeZone: 'UTC' },
    patient: { id: 'p', name: 'P' },
    self: { key: 'user:x', name: 'X', role },
    queuePosition: null,
    estimatedWaitMinutes: null,
    runningLateMinutes: null,
    deviceCheck: null,
    iceServers: [],
    canShareFiles: true,
    canInvite: false,
    canHost,
  };
}

describe('visit screen by phase', () => {
  it('takes the patient through device check, lobby, waiting room and call', () => {
    expect(screenFor(state('too_early', 'patient'), { deviceCheckDone: false })).toBe('device_check');
    expect(screenFor(state('too_early', 'patient'), { deviceCheckDone: true })).toBe('lobby');
    expect(screenFor(state('check_in_open', 'patient'), { deviceCheckDone: true })).toBe('lobby');
    expect(screenFor(state('waiting', 'patient'), { deviceCheckDone: true })).toBe('waiting');
    expect(screenFor(state('waiting', 'interpreter'), { deviceCheckDone: true })).toBe('waiting');
    // A reload during the call goes straight back to it.
    expect(screenFor(state('in_call', 'patient'), { deviceCheckDone: false })).toBe('call');
  });

  it('puts the host in the call screen while the visit is open, and everyone on the end screens', () => {
    for (const phase of ['too_early', 'check_in_open', 'waiting', 'in_call'] as const) {
      expect(screenFor(state(phase, 'doctor'), { deviceCheckDone: false })).toBe('call');
    }
    expect(screenFor(state('waiting', 'staff'), { deviceCheckDone: true })).toBe('overview');
    expect(screenFor(state('ended', 'doctor'), { deviceCheckDone: true })).toBe('ended');
    expect(screenFor(state('ended', 'patient'), { deviceCheckDone: false })).toBe('ended');
    expect(screenFor(state('closed', 'patient'), { deviceCheckDone: true })).toBe('closed');
  });
});
