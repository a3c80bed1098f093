import { useEffect, useId, useMemo, useState } from 'react';
import type { Scenario } from '../../core/types';
import { useApp } from '../../state/store';
import { useT } from '../i18n';
import { embedLink, shareLink } from '../shell/url-sync';

/** The widget's inputs a new snippet offers: the batch and the length of the scenario's kind. */
const defaultControls = (s: Scenario) => (s.mode === 'training' ? 'batch,seq' : 'batch,prompt');
/** Frame height of the snippet: the widget (verdict, totals, chart, two inputs) fits in it on a desktop. */
export const EMBED_HEIGHT = 760;

/**
 * "Copy link" for the whole configuration, and the <iframe> snippet for the embedded widget (with
 * the inputs the author lists). `s` is the settled active scenario: the links follow it, so
 * dragging a slider does not rewrite them every step.
 */
export function SharePanel({ s }: { s: Scenario }) {
  const t = useT();
  const id = useId();
  const scenarios = useApp((st) => st.scenarios.length);
  const gpus = useApp((st) => st.gpus);
  const unit = useApp((st) => st.unit);
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle');
  // eslint-disable-next-line react-hooks/exhaustive-deps -- shareLink() reads the store; these are what the link is made of
  const settledLink = useMemo(() => shareLink(), [s, scenarios, gpus, unit, t]);
  // "Copy link" always takes the state as it is now, even mid-edit, and shows what it copied
  const [copiedLink, setCopiedLink] = useState<string | null>(null);
  const link = copiedLink ?? settledLink;
  useEffect(() => setCopiedLink(null), [settledLink]);
  const [controls, setControls] = useState(() => defaultControls(s));
  const controlList = controls
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- controlList is rebuilt each render from `controls`; embedLink() reads the store, which settledLink follows
  const embedUrl = useMemo(() => embedLink(controlList), [settledLink, controls]);
  const snippet = `<iframe src="${embedUrl}" title="${t('app.title')}" width="100%" height="${EMBED_HEIGHT}" style="border:0" loading="lazy"></iframe>`;
  const copy = async () => {
    try {
      const fresh = shareLink();
      setCopiedLink(fresh);
      await navigator.clipboard.writeText(fresh);
      setStatus('copied');
    } catch {
      setStatus('failed');
    }
  };
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('share.title')}</h2>
      <div className="row">
        <button type="button" className="primary" onClick={() => void copy()}>
          {t('share.copy')}
        </button>
        <span role="status" className="small">
          {status === 'copied' ? t('share.copied') : status === 'failed' ? t('share.failed') : ''}
        </span>
      </div>
      <div className="field">
        <label htmlFor={`${id}-link`}>{t('share.link')}</label>
        <input id={`${id}-link`} type="text" readOnly value={link} style={{ width: '100%' }} onFocus={(e) => e.target.select()} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-controls`}>{t('share.controls')}</label>
        <input id={`${id}-controls`} type="text" value={controls} spellCheck={false} style={{ width: '100%' }} onChange={(e) => setControls(e.target.value)} />
        <p className="field-help">{t('share.controlsHelp')}</p>
      </div>
      <div className="field">
        <label htmlFor={`${id}-embed`}>{t('share.embed')}</label>
        <textarea id={`${id}-embed`} readOnly rows={3} value={snippet} onFocus={(e) => e.target.select()} />
        <p className="field-help">{t('share.embedHelp')}</p>
      </div>
    </section>
  );
}
