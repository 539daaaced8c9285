/**
 * The bodies of server/test/big-bodies.ts's routes: the largest valid-shaped body each route accepts
 * within its limits (FIE entries, results, DEHÚ notices, a device's finish, a document template).
 */
export const FINISH_BOUNDARY = '----cuerposgrandes';

/** A multipart finish: the outcome naming one output, then that file's `bytes` bytes. */
export function multipartFinish(bytes: number): Buffer {
  const outcome = JSON.stringify({ kind: 'result', result: 'Success', usageUnits: 0, outputFolder: null, outputFileNames: ['salida.bin'], outputs: [{ name: 'salida.bin', base64: '' }] });
  return Buffer.concat([
    Buffer.from(`--${FINISH_BOUNDARY}\r\nContent-Disposition: form-data; name="outcome"\r\n\r\n${outcome}\r\n`),
    Buffer.from(`--${FINISH_BOUNDARY}\r\nContent-Disposition: form-data; name="outputs"; filename="output"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.alloc(bytes, 0x41),
    Buffer.from(`\r\n--${FINISH_BOUNDARY}--\r\n`),
  ]);
}

/** A JSON string of `count` items built by `item(i)`, as many as fit `limit` with `wrap` around them. */
export function fill(limit: number, maxItems: number, wrap: (items: string) => string, item: (index: number) => string): string {
  const overhead = Buffer.byteLength(wrap(''));
  const parts: string[] = [];
  let bytes = overhead;
  for (let index = 0; index < maxItems; index += 1) {
    const next = item(index);
    const size = Buffer.byteLength(next) + (parts.length > 0 ? 1 : 0);
    if (bytes + size > limit) break;
    parts.push(next);
    bytes += size;
  }
  return wrap(parts.join(','));
}

/** 1,000 characters that JSON writes as 6 bytes each (the most bytes a capped text can take). */
export const escapedText = (chars: number) => JSON.stringify('\u0001'.repeat(chars));
export const id64 = (index: number) => JSON.stringify(`${String(index).padStart(8, '0')}${'f'.repeat(56)}`);

/** A FIE entry of `fields` fields (codes the catalogue does not know are kept as sent), 400-character values. */
function fieEntry(index: number, fields: number): string {
  const parts: string[] = [];
  for (let field = 0; field < fields; field += 1) parts.push(`"${9000 + field}":{"value":"${String(index).padStart(6, '0')}${'x'.repeat(394)}"}`);
  return `{${parts.join(',')}}`;
}

/** Entries big enough that `maxItems` of them fill `limit`. */
export function fieEntries(limit: number, maxItems: number, wrap: (items: string) => string): string {
  const fields = Math.max(1, Math.min(999, Math.ceil(limit / maxItems / 420)));
  return fill(limit, maxItems, wrap, (index) => fieEntry(index, fields));
}

export const lemaEnvio = (index: number) =>
  JSON.stringify({
    identificador: `N${index}`.padEnd(100, 'x'),
    codigoOrigen: 1,
    concepto: 'c'.repeat(255),
    descripcion: 'd'.repeat(1000),
    organismoEmisor: { codigo: 'o'.repeat(40), nombre: 'n'.repeat(300) },
    organismoEmisorRaiz: { codigo: 'o'.repeat(40), nombre: 'n'.repeat(300) },
    fechaPuestaDisposicion: '2025-01-15T10:00:00+01:00',
    tipoEnvio: 2,
    vinculo: 1,
    titular: { nombre: 't'.repeat(300), nif: '12345678Z' },
    metadatosPublicos: 'm'.repeat(400),
    codigoProcedimiento: 'p'.repeat(60),
  });

/** A template of image blocks filling `limit` bytes, each image a PNG's first bytes and padding. */
export function templateWithImages(limit: number, imageMax: number): string {
  const wrap = (blocks: string[]) => `{"name":"Cuerpos grandes","description":"","categoryId":null,"content":{"styles":{"font":"sans","fontSize":11,"accentColor":"#1f4e79"},"blocks":[${blocks.join(',')}]}}`;
  const image = (chars: number) => `{"type":"image","dataUrl":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUg${'A'.repeat(Math.max(0, chars))}","width":50,"alt":""}`;
  const perImage = Buffer.byteLength(image(0));
  const blocks: string[] = [];
  let room = limit - Buffer.byteLength(wrap([]));
  while (room > perImage + 4) {
    const chars = Math.min(imageMax - 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUg'.length, room - perImage - 1) & ~3;
    blocks.push(image(chars));
    room -= Buffer.byteLength(image(chars)) + 1;
  }
  return wrap(blocks);
}
