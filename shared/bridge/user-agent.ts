/** The user-agent marker the desktop window adds, so the renderer knows it is embedded (spec §6). */
export const EMBEDDED_USER_AGENT_MARKER = 'AutoAsesorDesktop';
