import { describe, expect, it } from 'vitest';
import { resumeWhenAllowed } from './use-mic-level';

/** An AudioContext as a browser makes it before any gesture: suspended, resumed only when allowed. */
class FakeAudioContext {
  state: AudioContextState = 'suspended';
  resumeCalls = 0;
  allowed = false;

  resume(): Promise<void> {
    this.resumeCalls += 1;
    if (this.allowed) {
      this.state = 'running';
    }
    return Promise.resolve();
  }
}

describe('the microphone meter before the first gesture', () => {
  it('asks a suspended context to resume at once and again on the first click, then stops listening', () => {
    const context = new FakeAudioContext();
    const page = new EventTarget();
    const stop = resumeWhenAllowed(context as unknown as AudioContext, page);
    expect(context.resumeCalls).toBe(1);
    expect(context.state).toBe('suspended');
    context.allowed = true;
    page.dispatchEvent(new Event('pointerdown'));
    expect(context.state).toBe('running');
    expect(context.resumeCalls).toBe(2);
    page.dispatchEvent(new Event('keydown'));
    expect(context.resumeCalls).toBe(2);
    stop();
  });

  it('leaves a running context alone', () => {
    const context = new FakeAudioContext();
    context.state = 'running';
    const page = new EventTarget();
    resumeWhenAllowed(context as unknown as AudioContext, page);
    page.dispatchEvent(new Event('pointerdown'));
    expect(context.resumeCalls).toBe(0);
  });
});
