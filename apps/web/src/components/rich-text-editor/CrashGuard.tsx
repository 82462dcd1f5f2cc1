import { Component, type ErrorInfo, type ReactNode } from 'react';

interface CrashGuardProps {
  children: ReactNode;
  /** Told after the children crashed and were removed. */
  onCrash: (error: unknown) => void;
  /** Shown in place of the crashed children until the parent restarts them (by changing this guard's key). */
  fallback?: ReactNode;
}

/** An error boundary: catches a crash of the editor so the rest of the page keeps working. */
export class CrashGuard extends Component<CrashGuardProps, { hasCrashed: boolean }> {
  override state = { hasCrashed: false };

  static getDerivedStateFromError(): { hasCrashed: boolean } {
    return { hasCrashed: true };
  }

  override componentDidCatch(error: unknown, _info: ErrorInfo): void {
    this.props.onCrash(error);
  }

  override render(): ReactNode {
    return this.state.hasCrashed ? (this.props.fallback ?? null) : this.props.children;
  }
}
