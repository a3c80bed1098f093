/**
 * Chinese for the core's message codes (FieldError / Message `code`). `{key}` is the field the
 * error belongs to; other `{…}` are the message's params. Codes missing here show the English text.
 */
export const CORE_ZH: Record<string, string> = {
  missing: '缺少字段 {key}',
  'not-integer': '{key}：应为正整数',
  'invalid-json': 'config：不是合法的 JSON',
  'not-object': 'config：不是 JSON 对象',
};
