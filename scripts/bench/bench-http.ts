/** What the server benches do over HTTP: sign up a firm (its session cookie) and poll /api/health meanwhile. */

export interface BenchFirm {
  cookie: string;
}

export async function signUpFirm(baseUrl: string, email: string): Promise<BenchFirm> {
  const response = await fetch(`${baseUrl}/api/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ name: 'Banco de Pruebas', email, password: 'Banco-Pruebas-42' }),
  });
  if (response.status !== 201) throw new Error(`registro ${email}: ${response.status}`);
  return { cookie: response.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ') };
}

/** Polls /api/health one request after the other (20 ms apart) until stopped; the latencies in ms. */
export function pollHealth(baseUrl: string): { stop: () => Promise<number[]> } {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${baseUrl}/api/health`).then((response) => response.arrayBuffer());
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return latencies;
    },
  };
}
