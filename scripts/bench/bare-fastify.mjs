// The yardstick of the cold-start bench (scripts/bench/server-start.ts): Fastify answering /api/health and
// nothing else, started the same way as the compiled server (node, one file, PORT and HOST from the env).
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/api/health', async () => ({ ok: true }));
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
