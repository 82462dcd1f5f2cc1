import { chatHistorySchema, type ChatHistory } from '@telemedicina/shared/visits';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';

/** `GET /visits/:id/messages?after=<seq>`: the stored chat after a sequence (also after the visit ended). */
export async function getChatHistory(appointmentId: string, after = 0): Promise<ChatHistory> {
  const body = await api.get<unknown>(`/visits/${encodeURIComponent(appointmentId)}/messages`, {
    query: { after, limit: 500 },
    alertOnError: false,
    showSpinner: false,
  });
  return parseAnswer(chatHistorySchema, body);
}
