import { describe, expect, it } from 'vitest';
import { signReadiness } from './sign-readiness';

const none = { subjective: false, objective: false, assessment: false, plan: false };

describe('signReadiness', () => {
  it('asks for an assessment, a plan or a diagnosis while none is there, and lists the empty sections', () => {
    expect(signReadiness({ ...none, subjective: true }, 0)).toEqual({
      isReady: false,
      missing: ['assessmentPlanOrDiagnosis'],
      emptySections: ['objective', 'assessment', 'plan'],
    });
  });

  it.each([
    ['an assessment', { ...none, assessment: true }, 0],
    ['a plan', { ...none, plan: true }, 0],
    ['a diagnosis', none, 1],
  ])('is ready with %s alone (the server rule)', (_what, filled, diagnoses) => {
    const readiness = signReadiness(filled, diagnoses);
    expect(readiness.isReady).toBe(true);
    expect(readiness.missing).toEqual([]);
  });
});
