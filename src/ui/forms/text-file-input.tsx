/**
 * A labelled file picker that reads one text file and hands its text on; files over `maxBytes`
 * are refused before reading (a pasted-by-mistake video must not freeze the tab).
 */
export function TextFileInput({ label, accept, maxBytes, onText, onTooBig }: { label: string; accept: string; maxBytes: number; onText: (text: string) => void; onTooBig: () => void }) {
  return (
    <label className="small">
      {label}{' '}
      <input
        type="file"
        accept={accept}
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (!f) return;
          if (f.size > maxBytes) onTooBig();
          else void f.text().then(onText);
        }}
      />
    </label>
  );
}
