import { describe, expect, it } from 'vitest';
import { replyAddress, ticketOfReplyAddress } from './reply-address.ts';

const SUPPORT = 'soporte@autoasesor.es';
const SECRET = 'secreto-de-las-direcciones';
const TICKET = '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b';

describe('signed reply addresses', () => {
  it('name their ticket, whatever the case the mail system gives them', () => {
    const address = replyAddress(SUPPORT, SECRET, TICKET);
    expect(address).toMatch(/^soporte\+t\.3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b\.[0-9a-f]{16}@autoasesor\.es$/);
    expect(ticketOfReplyAddress(SUPPORT, SECRET, address)).toBe(TICKET);
    expect(ticketOfReplyAddress(SUPPORT, SECRET, address.toUpperCase())).toBe(TICKET);
  });

  it('name nothing when forged, altered or someone else\'s', () => {
    const address = replyAddress(SUPPORT, SECRET, TICKET);
    expect(ticketOfReplyAddress(SUPPORT, 'otro-secreto', address)).toBeNull();
    expect(ticketOfReplyAddress(SUPPORT, SECRET, address.replace(TICKET, '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6c'))).toBeNull();
    expect(ticketOfReplyAddress(SUPPORT, SECRET, address.replace('@autoasesor.es', '@otro.es'))).toBeNull();
    expect(ticketOfReplyAddress(SUPPORT, SECRET, address.replace('soporte+', 'ventas+'))).toBeNull();
    expect(ticketOfReplyAddress(SUPPORT, SECRET, SUPPORT)).toBeNull();
    expect(ticketOfReplyAddress(SUPPORT, SECRET, 'no es una dirección')).toBeNull();
  });
});
