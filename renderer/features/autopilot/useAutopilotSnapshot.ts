import { useCallback, useEffect, useState } from 'react';
import type { AutopilotSnapshot } from '#shared/autopilot/state.ts';
import type { BridgeEnvelope } from '#shared/bridge/envelope.ts';
import type { BridgeClient } from '../../app/hooks.ts';

/** Keeps the later of two snapshots: an answer may arrive after an event that followed it. */
function later(current: AutopilotSnapshot | null, next: AutopilotSnapshot): AutopilotSnapshot {
  return current !== null && Date.parse(current.at) > Date.parse(next.at) ? current : next;
}

/**
 * The desktop's autopilot as it is now: asked once (GetAutopilot), then kept up to date by the
 * 'Autopilot' event. `accept` takes the snapshot every command answers with.
 */
export function useAutopilotSnapshot(bridge: BridgeClient) {
  const [snapshot, setSnapshot] = useState<AutopilotSnapshot | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  const accept = useCallback((next: AutopilotSnapshot) => setSnapshot((current) => later(current, next)), []);

  useEffect(() => {
    let live = true;
    const unsubscribe = bridge.on('Autopilot', (next) => {
      if (live) accept(next);
    });
    void bridge.invoke('GetAutopilot', {}).then((envelope) => {
      if (!live) return;
      if (envelope.ok) {
        accept(envelope.data);
        setLoadError(null);
      } else {
        setLoadError(envelope.error.message);
      }
    });
    return () => {
      live = false;
      unsubscribe();
    };
  }, [bridge, accept, attempt]);

  const retry = useCallback(() => {
    setLoadError(null);
    setAttempt((count) => count + 1);
  }, []);

  return { snapshot, loadError, retry, accept };
}

export type SnapshotEnvelope = BridgeEnvelope<AutopilotSnapshot>;

/**
 * One command at a time from the panel (a switch, certificates, a delete): which one is under way,
 * and the Spanish message of the last refusal.
 */
export function useAutopilotCommands(accept: (snapshot: AutopilotSnapshot) => void) {
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const perform = useCallback(
    async (key: string, send: () => Promise<SnapshotEnvelope>): Promise<boolean> => {
      setPending(key);
      setError(null);
      try {
        const envelope = await send();
        if (envelope.ok) accept(envelope.data);
        else setError(envelope.error.message);
        return envelope.ok;
      } finally {
        setPending(null);
      }
    },
    [accept],
  );

  return { pending, error, perform, clearError: useCallback(() => setError(null), []) };
}

/** Tells the desktop the panel is open while this is mounted: the desktop app runs its loop only then. */
export function usePanelOpenSignal(bridge: BridgeClient, accept: (snapshot: AutopilotSnapshot) => void) {
  useEffect(() => {
    void bridge.invoke('SetAutopilotPanelOpen', { open: true }).then((envelope) => {
      if (envelope.ok) accept(envelope.data);
    });
    return () => {
      void bridge.invoke('SetAutopilotPanelOpen', { open: false });
    };
  }, [bridge, accept]);
}

/** The clock, ticking every `everyMs` (the countdown rings tick each second). */
export function useNow(everyMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
