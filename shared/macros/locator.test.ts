import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeSelector, partsOf, selectorOf, type LocatorParts } from './locator.ts';

describe('Playwright selectors as SmartBuilder edits them', () => {
  it('reads what the recorder writes (role and name, label, placeholder, text, test id)', () => {
    expect(partsOf('internal:role=button[name="Entrar"i]')).toEqual({ kind: 'role', role: 'button', name: 'Entrar', exact: false });
    expect(partsOf('internal:role=textbox[name="Usuario"s]')).toEqual({ kind: 'role', role: 'textbox', name: 'Usuario', exact: true });
    expect(partsOf('internal:role=table')).toEqual({ kind: 'role', role: 'table', name: '', exact: false });
    expect(partsOf('internal:label="Tipo"i')).toEqual({ kind: 'label', text: 'Tipo', exact: false });
    expect(partsOf('internal:attr=[placeholder="NIF del trabajador"i]')).toEqual({ kind: 'placeholder', text: 'NIF del trabajador', exact: false });
    expect(partsOf('internal:text="Siguiente"s')).toEqual({ kind: 'text', text: 'Siguiente', exact: true });
    expect(partsOf('internal:testid=[data-testid="enviar"s]')).toEqual({ kind: 'testid', id: 'enviar' });
  });

  it('keeps chained, nth and CSS selectors as written', () => {
    for (const selector of ['#tabla > tbody tr', 'internal:role=row >> nth=2', 'internal:role=button[name="Entrar"i] >> nth=0', 'internal:label="A"i >> internal:role=textbox']) {
      expect(partsOf(selector)).toEqual({ kind: 'selector', selector });
    }
  });

  it('writes back exactly the selector it read, quotes and backslashes included', () => {
    const parts = fc.oneof(
      fc.record({ kind: fc.constant('role' as const), role: fc.constantFrom('button', 'link', 'textbox'), name: fc.string(), exact: fc.boolean() }),
      fc.record({ kind: fc.constantFrom('label' as const, 'placeholder' as const, 'text' as const), text: fc.string(), exact: fc.boolean() }),
      fc.record({ kind: fc.constant('testid' as const), id: fc.string() }),
    );
    fc.assert(
      fc.property(parts, (written: LocatorParts) => {
        const selector = selectorOf(written);
        expect(selectorOf(partsOf(selector))).toBe(selector);
        // A role without a name is written without [name=…], and reads back so.
        if (!(written.kind === 'role' && written.name === '')) expect(partsOf(selector)).toEqual(written);
      }),
    );
  });

  it('describes a target in Spanish', () => {
    expect(describeSelector('internal:role=button[name="Entrar"i]')).toBe('botón «Entrar»');
    expect(describeSelector('internal:label="Usuario"i')).toBe('campo «Usuario»');
    expect(describeSelector('internal:text="Siguiente"i')).toBe('texto «Siguiente»');
    expect(describeSelector('internal:role=table')).toBe('tabla');
    expect(describeSelector('#resultados')).toBe('elemento #resultados');
  });
});
