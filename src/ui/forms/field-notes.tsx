import { memo } from 'react';

/** What a form field says under its control: the error, why it is disabled, and help. */
export interface Notes {
  error?: string;
  /** shown only while disabled */
  why?: string;
  help?: string;
}

/** The element ids of the notes present, for aria-describedby (undefined when none). */
export function describedBy(id: string, n: Notes): string | undefined {
  const ids = [n.error ? `${id}-msg` : '', n.why ? `${id}-why` : '', n.help ? `${id}-help` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

/**
 * The notes as paragraphs with the ids describedBy() names; errors are announced. Memoised: a
 * slider step re-renders its field, whose notes rarely change.
 */
export const FieldNotes = memo(function FieldNotes({ id, error, why, help }: Notes & { id: string }) {
  return (
    <>
      {error && (
        <p id={`${id}-msg`} className="field-msg" role="alert">
          {error}
        </p>
      )}
      {why && (
        <p id={`${id}-why`} className="field-why">
          {why}
        </p>
      )}
      {help && (
        <p id={`${id}-help`} className="field-help">
          {help}
        </p>
      )}
    </>
  );
});
