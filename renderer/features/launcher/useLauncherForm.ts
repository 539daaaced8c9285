import { useCallback, useMemo, useRef, useState } from 'react';
import type { FlowDefinition } from '#shared/flows/definition.ts';
import { useEmbedded } from '../../app/hooks.ts';
import { SCROLL_THROTTLE_MS, useAppForm } from '../../ui/forms.ts';
import type { FormRules } from '../../ui/forms.ts';
import { allInputs, chosenCertificate, defaultFormValue, effectiveTemplate, ruleFor, selectedPaths } from './launcherModel.ts';
import { useDeviceChoice } from './useDeviceChoice.ts';

const FOCUSABLE = 'input:not([type="hidden"]):not([hidden]), select, textarea, button, [tabindex]:not([tabindex="-1"])';

/**
 * The launcher's form: every input of the flow as text in the app's react-hook-form wrapper (errors on
 * blur and on Next, shared validators), plus what the wrapper does not know: inputs that are not text
 * fields (checkbox, files, column mapping) set their value here, each input has an anchor for the
 * throttled scroll to the first error, uploads in progress hold Next back, and a desktop flow's device
 * is chosen here (its certificates come from that device).
 */
export function useLauncherForm(flow: FlowDefinition) {
  const embedded = useEmbedded();
  const inputs = useMemo(() => allInputs(flow), [flow]);
  // What a ColumnMapping input found wrong with its workbook (no data rows, no known header): it holds Next back.
  const workbookProblems = useRef(new Map<string, string>());
  const rules = useMemo(() => Object.fromEntries(inputs.map((input) => {
    const rule = ruleFor(input, embedded, inputs);
    if (effectiveTemplate(input) !== 'ColumnMapping' || input.hidden === true) return [input.key, rule];
    return [input.key, { ...rule, check: () => workbookProblems.current.get(input.key) }];
  })) as FormRules<string>, [inputs, embedded]);
  const defaultValues = useMemo(() => Object.fromEntries(inputs.map((input) => [input.key, defaultFormValue(input)])), [inputs]);
  const form = useAppForm<string>({ defaultValues, rules });
  const anchors = useRef(new Map<string, HTMLElement>());
  const lastScroll = useRef(Number.NEGATIVE_INFINITY);
  const [uploading, setUploading] = useState<ReadonlySet<string>>(new Set());
  const device = useDeviceChoice(flow);

  /** A ref for the element that holds an input: the first error is scrolled to and focused there. */
  const anchor = useCallback((key: string) => (element: HTMLElement | null) => {
    if (element) anchors.current.set(key, element);
    else anchors.current.delete(key);
  }, []);

  const focusFirstError = useCallback((keys: readonly string[]) => {
    const now = Date.now();
    if (now - lastScroll.current < SCROLL_THROTTLE_MS) return;
    const invalid = keys.filter((key) => form.getFieldState(key).error !== undefined);
    const targets = invalid.map((key) => anchors.current.get(key)).filter((element): element is HTMLElement => element !== undefined);
    targets.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    const first = targets[0];
    if (!first) return;
    lastScroll.current = now;
    first.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
    const focusable = first.matches(FOCUSABLE) ? first : first.querySelector<HTMLElement>(FOCUSABLE);
    focusable?.focus({ preventScroll: true });
  }, [form]);

  /** Checks the given inputs (a section's, on Next); shows their errors and goes to the first. */
  const validate = useCallback(async (keys: readonly string[]): Promise<boolean> => {
    if (keys.length === 0) return true;
    const valid = await form.trigger([...keys]);
    if (!valid) focusFirstError(keys);
    return valid;
  }, [form, focusFirstError]);

  /** Sets a controlled input's value; a shown error follows the change, as it does for typed text. */
  const setText = useCallback((key: string, value: string) => {
    const shown = form.getFieldState(key).error !== undefined;
    form.setValue(key, value, { shouldDirty: true, shouldValidate: shown });
  }, [form]);

  /** A controlled input lost focus: check it, as a text field is checked on blur. */
  const touch = useCallback((key: string) => {
    void form.trigger(key);
  }, [form]);

  /** A ColumnMapping input read its workbook: what is wrong with it (shown at once), or undefined when fine. */
  // Stable (the form object is new each render), so the inputs' effects that call it run on changes only.
  const formRef = useRef(form);
  formRef.current = form;
  const setWorkbookProblem = useCallback((key: string, problem: string | undefined) => {
    const before = workbookProblems.current.get(key);
    if (before === problem) return;
    if (problem === undefined) workbookProblems.current.delete(key);
    else workbookProblems.current.set(key, problem);
    const current = formRef.current;
    if (problem !== undefined || current.getFieldState(key).error !== undefined) void current.trigger(key);
  }, []);

  const setUploadBusy = useCallback((key: string, busy: boolean) => {
    setUploading((current) => {
      const next = new Set(current);
      if (busy) next.add(key);
      else next.delete(key);
      return next;
    });
  }, []);

  /** Another device: a certificate chosen on a different one, or paths of this PC for another, no longer apply, so they are cleared. */
  const chooseDevice = useCallback((key: string) => {
    const option = device.options.find((candidate) => candidate.key === key);
    const machineId = option && !option.thisDevice ? option.machine._id : undefined;
    for (const input of inputs) {
      const value = form.getValues()[input.key];
      const template = effectiveTemplate(input);
      const chosen = template === 'Certificate' ? chosenCertificate(value) : null;
      const stale = (chosen !== null && chosen.machineId !== machineId) || (template === 'SelectionDialog' && machineId !== undefined && selectedPaths(value).length > 0);
      if (stale) form.setValue(input.key, '', { shouldDirty: true });
    }
    device.choose(key);
  }, [device, inputs, form]);

  return { flow, form, rules, anchor, validate, setText, touch, uploading, setUploadBusy, setWorkbookProblem, device, chooseDevice };
}

export type LauncherForm = ReturnType<typeof useLauncherForm>;
