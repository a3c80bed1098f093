import { useId, useState } from 'react';
import { importTorchRepr } from '../../core/layers/repr-import';
import { importTorchinfo, isTorchinfo } from '../../core/layers/torchinfo-import';
import { prepareNetwork } from '../../core/layers/estimate';
import type { Message } from '../../core/types';
import type { Network } from '../../core/layers/spec';
import type { Unparsed } from '../../core/layers/repr-parse';
import { formatNumber } from '../i18n/format';
import { useLT } from './layers-i18n';
import { useNet } from './net-store';
import { listTooLong } from './net-url';
import { noteWords } from './layer-core-zh';

interface Imported {
  format: 'torchinfo' | 'repr';
  network: Network;
  notes: Message[];
  unparsed: Unparsed[];
  /** torchinfo's "Total params" line, null when absent */
  stated: number | null;
  /** parameters of what was imported, null when it does not analyse */
  counted: number | null;
}

/** Import either format (a torchinfo table is recognised by its header), with a parameter cross-check. */
function importText(text: string, input: number[]): Imported {
  const info = isTorchinfo(text);
  const r = info ? importTorchinfo(text, input) : { ...importTorchRepr(text, input), statedTotal: null };
  const p = r.network.layers.length > 0 ? prepareNetwork(r.network, 'fp32') : null;
  return {
    format: info ? 'torchinfo' : 'repr',
    network: r.network,
    notes: r.notes,
    unparsed: r.unparsed,
    stated: r.statedTotal,
    counted: p?.ok ? p.value.a.params : null,
  };
}

/** Paste print(model) or a torchinfo summary; the result replaces the layer list, with every assumption and unread line listed. */
export function ImportPanel() {
  const t = useLT();
  const id = useId();
  const input = useNet((s) => s.input);
  const setCustom = useNet((s) => s.setCustom);
  const tooLong = useNet(listTooLong);
  const [text, setText] = useState('');
  const [result, setResult] = useState<Imported | null>(null);
  const count = result?.network.layers.length ?? 0;
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <details open={result !== null}>
        <summary>
          <h2 id={`${id}-h`} className="net-inline-h">
            {t('imp.title')}
          </h2>
        </summary>
        <p className="field-help">{t('imp.help')}</p>
        <label htmlFor={`${id}-t`} className="visually-hidden">
          {t('imp.text')}
        </label>
        <textarea
          id={`${id}-t`}
          rows={8}
          value={text}
          spellCheck={false}
          placeholder={'ResNet(\n  (conv1): Conv2d(3, 64, kernel_size=(7, 7), stride=(2, 2), padding=(3, 3), bias=False)\n  …'}
          onChange={(e) => setText(e.target.value)}
        />
        <button
          type="button"
          disabled={text.trim() === ''}
          onClick={() => {
            const r = importText(text, input);
            setResult(r);
            if (r.network.layers.length > 0) setCustom(r.network.layers, r.network.input);
          }}
        >
          {t('imp.button')}
        </button>
        {result && (
          <div className="net-import" role="status">
            <p>{count > 0 ? t(result.format === 'torchinfo' ? 'imp.doneInfo' : 'imp.done', { n: count }) : t('imp.empty')}</p>
            {result.stated !== null && result.counted !== null && (
              <p className={result.stated === result.counted ? 'fits' : 'nofit'}>
                {t(result.stated === result.counted ? 'imp.totalOk' : 'imp.totalOff', { stated: formatNumber(result.stated, t.lang), counted: formatNumber(result.counted, t.lang) })}
              </p>
            )}
            {result.notes.length > 0 && (
              <>
                <p className="small">{t('imp.notes')}</p>
                <ul className="small">
                  {result.notes.map((n, i) => (
                    <li key={i}>{noteWords(t.lang, n)}</li>
                  ))}
                </ul>
              </>
            )}
            {result.unparsed.length > 0 && (
              <>
                <p className="net-error">{t('imp.unparsed', { n: result.unparsed.length })}</p>
                <pre className="net-unparsed">{result.unparsed.map((u) => `${u.line}: ${u.text.trim()}`).join('\n')}</pre>
              </>
            )}
            {tooLong && <p className="field-help">{t('imp.tooLong')}</p>}
          </div>
        )}
      </details>
    </section>
  );
}
