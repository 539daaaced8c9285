import { useContext, useMemo } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import type { BridgeClient } from '../bridge/client.ts';
import { BridgeContext, EmbeddedContext, PromptContext } from './contexts.ts';
import type { PromptApi } from './contexts.ts';
import type { SessionState } from './session.ts';
import type { AppDispatch, RootState } from './store.ts';
import { TOAST_DURATION_MS, toastShown } from './toasts.ts';

export type { BridgeClient } from '../bridge/client.ts';
export type { CertificateChoice, PromptApi } from './contexts.ts';
export { TOAST_DURATION_MS } from './toasts.ts';

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();

export function useSession(): SessionState {
  return useAppSelector((state) => state.session);
}

/** True inside the desktop app's window (user-agent marker, spec §6). */
export function useEmbedded(): boolean {
  return useContext(EmbeddedContext);
}

/** `{ kind, available, invoke, on }`: the desktop bridge, the agent's, or none in plain web mode. */
export function useBridge(): BridgeClient {
  return useContext(BridgeContext);
}

export function usePrompt(): PromptApi {
  return useContext(PromptContext);
}

export interface ToastApi {
  error(message: string): void;
  success(message: string, durationMs?: number): void;
  info(message: string, durationMs?: number): void;
}

/** Errors last 3000 ms; pass TOAST_DURATION_MS.copy / .emailSuccess / .fie for the other lifetimes. */
export function useToast(): ToastApi {
  const dispatch = useAppDispatch();
  return useMemo(
    () => ({
      error: (message) => dispatch(toastShown('error', message, TOAST_DURATION_MS.error)),
      success: (message, durationMs) => dispatch(toastShown('success', message, durationMs)),
      info: (message, durationMs) => dispatch(toastShown('info', message, durationMs)),
    }),
    [dispatch],
  );
}
