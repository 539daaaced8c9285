import { Component } from 'react';
import type { ReactNode } from 'react';
import { Button } from '../../ui/Button.tsx';
import { es } from '../../i18n/es-core.ts';

/** When a screen fails to load or throws: say so in Spanish and offer a reload (chunk errors heal that way). */
export function RouteError({ error }: { error: unknown }) {
  const detail = error instanceof Error ? error.message : undefined;
  return (
    <main className="app-not-found" role="alert">
      <h1>{es.routeError.title}</h1>
      <p>{es.routeError.body}</p>
      {detail && <p className="app-muted">{detail}</p>}
      <Button onClick={() => window.location.reload()}>{es.routeError.reload}</Button>
    </main>
  );
}

interface BoundaryProps {
  /** The error clears when this changes (the path: another screen may well work). */
  resetKey: string;
  children: ReactNode;
}

interface BoundaryState {
  error: unknown;
  hasError: boolean;
  resetKey: string;
}

/** Shows RouteError instead of the routes below it when one of them throws while rendering or loading. */
export class RouteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: undefined, hasError: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error, hasError: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { error: undefined, hasError: false, resetKey: props.resetKey };
  }

  override render() {
    return this.state.hasError ? <RouteError error={this.state.error} /> : this.props.children;
  }
}
