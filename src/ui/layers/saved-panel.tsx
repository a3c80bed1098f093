/** Save the Layer builder's network under a name, and load or delete saved ones (saved-networks.ts). */
import { useId } from 'react';
import { findNetworkPreset } from '../../core/layers/presets';
import { backupKeys } from '../../state/storage/versioned-store';
import { SavedList, useLoaded } from '../forms/saved-list';
import { useT } from '../i18n';
import { useNet, netStateOf } from './net-store';
import { deleteNetwork, loadSavedNetworks, NETWORKS_STORE, restoreNetwork, saveNetwork } from './saved-networks';

export function SavedNetworksPanel() {
  const t = useT();
  const id = useId();
  const [loaded, refresh] = useLoaded(loadSavedNetworks);
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`} className="visually-hidden">
        {t('savedNet.title')}
      </h2>
      <SavedList
        loaded={loaded}
        refresh={refresh}
        backupKey={backupKeys(NETWORKS_STORE.key)[0]}
        canSave
        labels={{ title: t('savedNet.title'), name: t('savedNet.name'), save: t('savedNet.save') }}
        help={t('savedNet.help')}
        onSave={(name) => saveNetwork(name, netStateOf(useNet.getState()))}
        onDelete={deleteNetwork}
        onLoad={(_, n) => useNet.getState().load(restoreNetwork(n, useNet.getState().gpus), [])}
        detail={(n) => findNetworkPreset(n.preset)?.label ?? ''}
      />
    </section>
  );
}
