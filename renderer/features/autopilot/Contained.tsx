import { Component } from 'react';
import type { ReactNode } from 'react';

interface ContainedProps {
  children: ReactNode;
  /** Told once when the part below fails (its chunk did not load, or it threw). */
  onError?: (error: unknown) => void;
}

/**
 * Keeps a failure of the autopilot's lazy parts (badge, panel) to themselves: they draw nothing
 * instead of taking the whole screen down to the route's error page.
 */
export class Contained extends Component<ContainedProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    this.props.onError?.(error);
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}
