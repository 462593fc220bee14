export const auditLogKey = (at: string, opId: string) => ({ PK: 'MODLOG', SK: `${at}#${opId}` });
export const auditTargetKey = (targetPk: string, at: string, opId: string) => ({ PK: targetPk, SK: `MODLOG#${at}#${opId}` });
