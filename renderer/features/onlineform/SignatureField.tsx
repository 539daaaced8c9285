import { useEffect, useId, useRef } from 'react';
import SignaturePad from 'signature_pad';
import { MAX_SIGNATURE_DATA_URL } from '#shared/api/onlineforms.ts';
import { onlineForm as text } from '../../i18n/es-onlineforms.ts';
import { Button } from '../../ui/index.ts';

export interface SignatureFieldProps {
  /** The signature as a PNG data URL, or null while the box is empty. */
  value: string | null;
  onChange: (value: string | null) => void;
  error?: string;
  /** The signer's name: 'Firmar con mi nombre' writes it in the box, for whoever cannot draw (keyboard, screen reader). */
  signerName: string;
}

/**
 * A drawn signature on signature_pad: pointer, touch and pen alike. The canvas is sized to its box
 * times the device pixel ratio (sharp on a phone), takes no page scroll while drawing (touch-action:
 * none), and keeps the strokes when the box changes width (a phone turned sideways).
 */
export function SignatureField({ value, onChange, error, signerName }: SignatureFieldProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  /** The name written in the box, kept so a resize writes it again (the pad redraws only its strokes). */
  const typedRef = useRef<string | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const hintId = useId();
  const errorId = useId();
  const statusId = useId();

  useEffect(() => {
    const canvas = canvasRef.current;
    // A browser without a 2D canvas (or a test's jsdom) gets no pad; the send then says the signature is missing.
    if (canvas === null || canvas.getContext('2d') === null) return undefined;
    const pad = new SignaturePad(canvas, { penColor: '#10243e', minWidth: 0.8, maxWidth: 2.6 });
    padRef.current = pad;
    let width = 0;
    const resize = () => {
      const box = canvas.getBoundingClientRect();
      // Phones resize the window as the address bar hides on scroll: only a new width redraws.
      if (box.width === 0 || Math.round(box.width) === width) return;
      width = Math.round(box.width);
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      const strokes = pad.toData();
      canvas.width = Math.round(box.width * ratio);
      canvas.height = Math.round(box.height * ratio);
      canvas.getContext('2d')?.scale(ratio, ratio);
      pad.clear();
      if (typedRef.current !== null) writeName(canvas, typedRef.current);
      if (strokes.length > 0) pad.fromData(strokes, { clear: false });
    };
    resize();
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(resize);
    observer?.observe(canvas);
    window.addEventListener('resize', resize);
    const ended = () => onChangeRef.current(pad.isEmpty() && typedRef.current === null ? null : exportPng(canvas, pad));
    pad.addEventListener('endStroke', ended);
    return () => {
      pad.removeEventListener('endStroke', ended);
      observer?.disconnect();
      window.removeEventListener('resize', resize);
      pad.off();
      padRef.current = null;
    };
  }, []);

  const clear = () => {
    typedRef.current = null;
    padRef.current?.clear();
    onChange(null);
  };

  const signWithName = () => {
    const canvas = canvasRef.current;
    const pad = padRef.current;
    const name = signerName.trim();
    if (canvas === null || pad === null || name === '') return;
    pad.clear();
    typedRef.current = name;
    writeName(canvas, name);
    onChange(exportPng(canvas, pad));
  };

  const describedBy = [hintId, statusId, error ? errorId : undefined].filter(Boolean).join(' ');
  return (
    <div className={`app-field onlineform-signature${error ? ' app-field--invalid' : ''}`}>
      <span className="onlineform-signature__title">{text.signature.title} *</span>
      <p id={hintId} className="ui-muted">{text.signature.hint}</p>
      <canvas
        ref={canvasRef}
        className="onlineform-signature__pad"
        role="img"
        tabIndex={-1}
        aria-label={text.signature.canvas}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        data-signed={value !== null || undefined}
      />
      <div className="onlineform-signature__foot">
        <span id={statusId} className="ui-muted" aria-live="polite">{value === null ? text.signature.empty : text.signature.signed}</span>
        <span className="onlineform-signature__buttons">
          <Button variant="secondary" onClick={signWithName} disabled={signerName.trim() === ''} aria-describedby={`${hintId}-typed`}>{text.signature.typed}</Button>
          <Button variant="secondary" onClick={clear} disabled={value === null}>{text.signature.clear}</Button>
        </span>
      </div>
      <p id={`${hintId}-typed`} className="ui-muted onlineform-signature__typed-hint">{text.signature.typedHint}</p>
      <p className="app-field__error"><span id={errorId}>{error}</span></p>
    </div>
  );
}

/** The signer's name in a handwriting-like face, centred on the signature line of the box. */
function writeName(canvas: HTMLCanvasElement, name: string) {
  const context = canvas.getContext('2d');
  if (context === null) return;
  const box = canvas.getBoundingClientRect();
  let size = Math.min(48, box.height * 0.35);
  const face = (px: number) => `italic ${px}px "Segoe Script", "Brush Script MT", "URW Chancery L", cursive`;
  context.font = face(size);
  // As large as fits the box's width, with a margin.
  while (size > 12 && context.measureText(name).width > box.width - 32) {
    size -= 2;
    context.font = face(size);
  }
  context.fillStyle = '#10243e';
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  context.fillText(name, box.width / 2, box.height / 2);
}

/**
 * The signature as a PNG data URL. A phone with a pixel ratio of 3 makes a large image; one over the
 * server's limit is drawn again at the box's own size, which still reads well on an A4 page.
 */
function exportPng(canvas: HTMLCanvasElement, pad: SignaturePad): string {
  const full = pad.toDataURL('image/png');
  if (full.length <= MAX_SIGNATURE_DATA_URL) return full;
  const box = canvas.getBoundingClientRect();
  const small = document.createElement('canvas');
  small.width = Math.max(1, Math.round(box.width));
  small.height = Math.max(1, Math.round(box.height));
  small.getContext('2d')?.drawImage(canvas, 0, 0, small.width, small.height);
  return small.toDataURL('image/png');
}
