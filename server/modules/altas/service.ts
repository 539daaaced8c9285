import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { DEVICE_AUTH_SCHEME } from '#shared/api/devices.ts';
import type { AppContext } from '../../context.ts';
import { requireSession } from '../../http/session.ts';
import type { PasswordGuard } from '../auth/guard.ts';
import type { DeviceAuth } from '../devices/auth.ts';
import type { FileStorage } from '../storage/service.ts';
import { AltasCompanies } from './companies.ts';
import { DEFAULT_ALTAS_UPLOAD_CAPS, type AltasUploadCaps } from './form-caps.ts';
import { AltasForms } from './forms.ts';
import { AltasPublic } from './public.ts';
import { AltasRobot } from './robot.ts';
import type { AltasCaller } from './store.ts';
import { AltasSubmissions } from './submissions.ts';

/** The altas module's services, built once in app.ts and handed to its three routes files. */
export class AltasService {
  readonly forms: AltasForms;
  readonly companies: AltasCompanies;
  readonly submissions: AltasSubmissions;
  readonly robot: AltasRobot;
  readonly public: AltasPublic;

  constructor(
    ctx: AppContext,
    readonly storage: FileStorage,
    /** The sign-in's password guard (the advisors' one, with the form's own counters: AltasPublic.formAccounts). */
    readonly passwords: PasswordGuard,
    log: FastifyBaseLogger,
    private readonly deviceAuth: DeviceAuth,
    uploadCaps: Partial<AltasUploadCaps> = {},
  ) {
    this.forms = new AltasForms(ctx.db, ctx.now, storage);
    this.companies = new AltasCompanies(ctx, storage);
    this.submissions = new AltasSubmissions(ctx.db, ctx.now, storage);
    this.robot = new AltasRobot(ctx.db, ctx.now, ctx.mailer, log);
    this.public = new AltasPublic(ctx.db, ctx.now, storage, { ...DEFAULT_ALTAS_UPLOAD_CAPS, ...uploadCaps }, ctx.publicUrl);
  }

  /** The robots' caller: a linked device (`Authorization: Device <token>`) or a signed-in member, as in FIE. */
  async robotCaller(request: FastifyRequest, ctx: AppContext): Promise<AltasCaller> {
    const header = request.headers.authorization;
    if (typeof header === 'string' && header.trim().startsWith(`${DEVICE_AUTH_SCHEME} `)) {
      const device = await this.deviceAuth.require(request);
      return { groupId: device.groupId, userId: device.userId };
    }
    const session = await requireSession(request, ctx);
    return { groupId: session.groupId, userId: session.userId };
  }
}
