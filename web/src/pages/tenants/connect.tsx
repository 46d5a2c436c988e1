import { useState } from 'preact/hooks'
import { ApiProblem, type Tenant } from '../../api'
import { FieldError, fieldMessages, formErrors, withoutFields } from '../../components/field-errors'
import { ProblemMessage } from '../../components/problem'
import {
  COST_SOURCES,
  type CostSource,
  CREDENTIAL_TYPES,
  type CreateTenantInput,
  type CredentialType,
  LOCATION_TYPES,
  type LocationType,
  STORE_WORDS,
  tenantsApi,
} from './api'

/** Every field of every source: switching the source keeps what was typed for the others. */
interface Draft {
  name: string
  costSource: CostSource
  cloudTenantId: string
  credentialType: CredentialType
  clientId: string
  clientSecret: string
  certificateThumbprint: string
  bucket: string
  prefix: string
  region: string
  accessKeyId: string
  secretAccessKey: string
  endpoint: string
  locationType: LocationType
  containerUrl: string
  /** How a Blob Storage pull signs in: a SAS, or a service principal of its own (not the connector's). */
  blobSignIn: BlobSignIn
  sasToken: string
  blobTenantId: string
  blobClientId: string
  blobClientSecret: string
  projectId: string
  dataset: string
  table: string
  serviceAccountKey: string
}

const EMPTY: Draft = {
  name: '',
  costSource: 'AzureConnector',
  cloudTenantId: '',
  credentialType: 'ServicePrincipalSecret',
  clientId: '',
  clientSecret: '',
  certificateThumbprint: '',
  bucket: '',
  prefix: '',
  region: '',
  accessKeyId: '',
  secretAccessKey: '',
  endpoint: '',
  locationType: 'S3',
  containerUrl: '',
  blobSignIn: 'Sas',
  sasToken: '',
  blobTenantId: '',
  blobClientId: '',
  blobClientSecret: '',
  projectId: '',
  dataset: '',
  table: '',
  serviceAccountKey: '',
}

const SOURCE_CHOICES: Record<CostSource, { label: string; hint: string }> = {
  AzureConnector: {
    label: 'Azure connector',
    hint: "Costwatch reads the directory's costs and resources from Azure with a credential you give it.",
  },
  FocusUpload: {
    label: 'FOCUS files you upload',
    hint: 'You push FOCUS exports (CSV, gzip CSV or Parquet) of any cloud from the tenant’s Runs page or the API.',
  },
  FocusExport: {
    label: 'FOCUS export in S3, Azure Blob Storage or BigQuery',
    hint: 'Costwatch pulls an AWS, Azure or Google Cloud FOCUS export every day, and when you ask.',
  },
}

type BlobSignIn = 'Sas' | 'ServicePrincipal'
const BLOB_SIGN_INS: { value: BlobSignIn; label: string; hint: string }[] = [
  { value: 'Sas', label: 'SAS token', hint: 'A shared access signature with read and list on the container.' },
  {
    value: 'ServicePrincipal',
    label: 'Service principal',
    hint: 'An Entra app with a client secret, given Storage Blob Data Reader on the container.',
  },
]

const CREDENTIAL_LABEL: Record<CredentialType, string> = {
  ServicePrincipalSecret: 'Service principal with a client secret',
  ServicePrincipalCertificate: 'Service principal with a certificate',
  ManagedIdentity: "The server's managed identity",
}

/** Only the fields of the chosen source are sent: the API refuses the others' fields. */
function inputOf(d: Draft): CreateTenantInput {
  const optional = (text: string) => (text.trim() === '' ? null : text.trim())
  if (d.costSource === 'FocusUpload') return { name: d.name, costSource: 'FocusUpload' }
  if (d.costSource === 'FocusExport' && d.locationType === 'BigQuery')
    return {
      name: d.name,
      costSource: 'FocusExport',
      location: {
        type: 'BigQuery',
        projectId: d.projectId.trim(),
        dataset: d.dataset.trim(),
        table: d.table.trim(),
        serviceAccountKey: d.serviceAccountKey.trim() === '' ? null : d.serviceAccountKey,
      },
    }
  if (d.costSource === 'FocusExport' && d.locationType === 'AzureBlob')
    return {
      name: d.name,
      costSource: 'FocusExport',
      location: {
        type: 'AzureBlob',
        containerUrl: d.containerUrl.trim(),
        prefix: d.prefix.trim(),
        ...(d.blobSignIn === 'ServicePrincipal'
          ? {
              tenantId: optional(d.blobTenantId),
              clientId: optional(d.blobClientId),
              clientSecret: d.blobClientSecret === '' ? null : d.blobClientSecret,
            }
          : { sasToken: optional(d.sasToken) }),
      },
    }
  if (d.costSource === 'FocusExport')
    return {
      name: d.name,
      costSource: 'FocusExport',
      location: {
        type: 'S3',
        bucket: d.bucket.trim(),
        prefix: d.prefix.trim(),
        region: d.region.trim(),
        accessKeyId: optional(d.accessKeyId),
        secretAccessKey: d.secretAccessKey === '' ? null : d.secretAccessKey,
        endpoint: optional(d.endpoint),
      },
    }
  return {
    name: d.name,
    costSource: 'AzureConnector',
    cloudTenantId: d.cloudTenantId.trim(),
    credentialType: d.credentialType,
    ...(d.credentialType !== 'ManagedIdentity' || d.clientId.trim() ? { clientId: optional(d.clientId) } : {}),
    ...(d.credentialType === 'ServicePrincipalSecret' ? { clientSecret: d.clientSecret || null } : {}),
    ...(d.credentialType === 'ServicePrincipalCertificate'
      ? { certificateThumbprint: optional(d.certificateThumbprint) }
      : {}),
  }
}

/** The fields the form shows messages beside; the rest stay in the problem under it. */
const SHOWN = [
  'name',
  'costSource',
  'cloudTenantId',
  'credentialType',
  'clientId',
  'clientSecret',
  'certificateThumbprint',
  'location',
]
const withoutShown = (error: unknown) => {
  if (!(error instanceof ApiProblem) || !error.problem.errors) return error
  const shown = Object.keys(error.problem.errors).filter((name) =>
    SHOWN.some((f) => name === f || name.startsWith(`${f}.`)),
  )
  return withoutFields(error, shown)
}

/**
 * Connects a tenant (owners only): its name and where its costs come from, the Azure connector with its credential,
 * FOCUS files uploaded to it, or a FOCUS export in S3, Blob Storage (with a SAS or a service principal) or BigQuery.
 * The server's 400 answers are shown beside their fields, and nothing typed is lost.
 */
export function ConnectTenantForm(props: { onCancel(): void; onConnected(tenant: Tenant): void }) {
  const [draft, setDraft] = useState<Draft>(EMPTY)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const set = <K extends keyof Draft>(field: K, value: Draft[K]) => setDraft((d) => ({ ...d, [field]: value }))
  const p = 'connect'
  const { describedBy, invalid, fieldError } = formErrors(error, p)

  const submit = async (event: Event) => {
    event.preventDefault()
    setError(null)
    setBusy(true)
    try {
      props.onConnected(await tenantsApi.create(inputOf(draft)))
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }

  /** A text field of the draft with its label, optional hint and the server's messages. */
  const text = (
    field: keyof Draft,
    apiField: string,
    label: string,
    options: { hint?: string; placeholder?: string; type?: 'text' | 'password'; words?: string } = {},
  ) => {
    const id = `${p}-${apiField.replaceAll('.', '-')}`
    const input = {
      id,
      autocomplete: 'off',
      spellcheck: false,
      placeholder: options.placeholder,
      value: draft[field],
      onInput: (e: { currentTarget: HTMLInputElement }) => set(field, e.currentTarget.value as never),
      'aria-invalid': invalid(apiField),
      'aria-describedby': describedBy(apiField, options.hint ? `${id}-hint` : undefined),
    }
    return (
      <div class="field">
        <label for={id}>{label}</label>
        {options.type === 'password' ? <input type="password" {...input} /> : <input type="text" {...input} />}
        {options.hint && (
          <p id={`${id}-hint`} class="hint">
            {options.hint}
          </p>
        )}
        {fieldError(apiField, options.words ?? `The ${label.toLowerCase()}`)}
      </div>
    )
  }

  return (
    <form class="card connect-form" onSubmit={submit} aria-labelledby={`${p}-title`} noValidate>
      <h2 id={`${p}-title`}>Connect a tenant</h2>
      <div class="form-grid">{text('name', 'name', 'Name', { placeholder: 'e.g. AWS production' })}</div>

      <fieldset aria-describedby={describedBy('costSource')}>
        <legend>Cost source</legend>
        {COST_SOURCES.map((source) => (
          <div key={source} class="choice-row">
            <label class="choice">
              <input
                type="radio"
                name={`${p}-source`}
                value={source}
                checked={draft.costSource === source}
                onChange={() => set('costSource', source)}
                aria-describedby={`${p}-source-${source}-hint`}
              />
              {SOURCE_CHOICES[source].label}
            </label>
            <p id={`${p}-source-${source}-hint`} class="hint">
              {SOURCE_CHOICES[source].hint}
            </p>
          </div>
        ))}
        {fieldError('costSource', 'The cost source')}
      </fieldset>

      {draft.costSource === 'AzureConnector' && (
        <fieldset>
          <legend>Azure credential</legend>
          <div class="form-grid">
            {text('cloudTenantId', 'cloudTenantId', 'Directory (tenant) id', {
              hint: 'A GUID, or a verified domain such as contoso.onmicrosoft.com.',
              words: 'The directory id',
            })}
            <div class="field">
              <label for={`${p}-credentialType`}>Credential type</label>
              <select
                id={`${p}-credentialType`}
                value={draft.credentialType}
                onChange={(e) => set('credentialType', e.currentTarget.value as CredentialType)}
                aria-invalid={invalid('credentialType')}
                aria-describedby={describedBy('credentialType')}
              >
                {CREDENTIAL_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {CREDENTIAL_LABEL[type]}
                  </option>
                ))}
              </select>
              {fieldError('credentialType', 'The credential type')}
            </div>
            {text(
              'clientId',
              'clientId',
              draft.credentialType === 'ManagedIdentity' ? 'Client id (optional)' : 'Client id',
              {
                hint:
                  draft.credentialType === 'ManagedIdentity'
                    ? 'A user-assigned identity’s client id; empty for the system-assigned one.'
                    : 'The application (client) id, a GUID.',
                words: 'The client id',
              },
            )}
            {draft.credentialType === 'ServicePrincipalSecret' &&
              text('clientSecret', 'clientSecret', 'Client secret', {
                type: 'password',
                hint: 'Sealed at rest; never shown again.',
              })}
            {draft.credentialType === 'ServicePrincipalCertificate' &&
              text('certificateThumbprint', 'certificateThumbprint', 'Certificate thumbprint', {
                hint: 'SHA-1 (40 hex) or SHA-256 (64 hex).',
              })}
          </div>
        </fieldset>
      )}

      {draft.costSource === 'FocusUpload' && (
        <p class="hint">
          No credential: once connected, upload FOCUS files on the tenant’s Runs page. Its cloud is read from the files.
        </p>
      )}

      {draft.costSource === 'FocusExport' && (
        <fieldset>
          <legend>Export location</legend>
          <div class="form-grid">
            <div class="field">
              <label for={`${p}-location-type`}>Stored in</label>
              <select
                id={`${p}-location-type`}
                value={draft.locationType}
                onChange={(e) => set('locationType', e.currentTarget.value as LocationType)}
              >
                {LOCATION_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {STORE_WORDS[type]}
                  </option>
                ))}
              </select>
            </div>
          </div>
          {draft.locationType === 'BigQuery' && (
            <div class="form-grid">
              {text('projectId', 'location.projectId', 'Project id', { placeholder: 'e.g. acme-billing' })}
              {text('dataset', 'location.dataset', 'Dataset', { placeholder: 'e.g. billing' })}
              {text('table', 'location.table', 'Table', {
                placeholder: 'gcp_billing_export_focus_<BILLING_ACCOUNT_ID>',
              })}
              <div class="field">
                <label for={`${p}-location-serviceAccountKey`}>Service account key</label>
                <textarea
                  id={`${p}-location-serviceAccountKey`}
                  rows={4}
                  spellcheck={false}
                  autocomplete="off"
                  value={draft.serviceAccountKey}
                  onInput={(e) => set('serviceAccountKey', e.currentTarget.value)}
                  aria-invalid={invalid('location.serviceAccountKey')}
                  aria-describedby={describedBy('location.serviceAccountKey', `${p}-location-serviceAccountKey-hint`)}
                />
                <p id={`${p}-location-serviceAccountKey-hint`} class="hint">
                  The JSON key of a service account with BigQuery Data Viewer on the dataset and Job User on the
                  project. Sealed at rest; never shown again.
                </p>
                {fieldError('location.serviceAccountKey', 'The service account key')}
              </div>
            </div>
          )}
          {draft.locationType === 'BigQuery' ? null : draft.locationType === 'AzureBlob' ? (
            <div class="form-grid">
              {text('containerUrl', 'location.containerUrl', 'Container URL', {
                placeholder: 'https://<account>.blob.core.windows.net/<container>',
                words: 'The container URL',
              })}
              {text('prefix', 'location.prefix', 'Prefix', {
                placeholder: 'e.g. costs/focus-cost',
                hint: 'The export’s root folder and name, under which each run writes <YYYYMMDD-YYYYMMDD>/<run id>/ with a manifest.json.',
              })}
              <fieldset class="field" aria-describedby={`${p}-blob-sign-in-hint`}>
                <legend>Sign in with</legend>
                {BLOB_SIGN_INS.map((choice) => (
                  <label key={choice.value} class="choice">
                    <input
                      type="radio"
                      name={`${p}-blob-sign-in`}
                      value={choice.value}
                      checked={draft.blobSignIn === choice.value}
                      onChange={() => set('blobSignIn', choice.value)}
                    />
                    {choice.label}
                  </label>
                ))}
                <p id={`${p}-blob-sign-in-hint`} class="hint">
                  {BLOB_SIGN_INS.find((choice) => choice.value === draft.blobSignIn)?.hint}
                </p>
              </fieldset>
              {draft.blobSignIn === 'Sas' ? (
                text('sasToken', 'location.sasToken', 'SAS token', {
                  type: 'password',
                  hint: 'With read and list on the container. Sealed at rest; never shown again.',
                  words: 'The SAS token',
                })
              ) : (
                <>
                  {text('blobTenantId', 'location.tenantId', 'Directory (tenant) id', {
                    hint: 'The app’s directory: a GUID, or a verified domain such as contoso.onmicrosoft.com.',
                    words: 'The directory id',
                  })}
                  {text('blobClientId', 'location.clientId', 'Client id', {
                    hint: 'The application (client) id, a GUID.',
                    words: 'The client id',
                  })}
                  {text('blobClientSecret', 'location.clientSecret', 'Client secret', {
                    type: 'password',
                    hint: 'Sealed at rest; never shown again.',
                    words: 'The client secret',
                  })}
                </>
              )}
            </div>
          ) : (
            <div class="form-grid">
              {text('bucket', 'location.bucket', 'Bucket', { placeholder: 'e.g. acme-billing' })}
              {text('prefix', 'location.prefix', 'Prefix', {
                placeholder: 'e.g. exports/focus-daily',
                hint: 'The export’s own folder, <S3 path prefix>/<export name>, under which AWS writes data/BILLING_PERIOD=YYYY-MM/… and metadata/…/<export name>-Manifest.json.',
              })}
              {text('region', 'location.region', 'Region', { placeholder: 'e.g. eu-west-1' })}
              {text('accessKeyId', 'location.accessKeyId', 'Access key id', {
                hint: "Of an IAM user that may list and read the export's folder.",
              })}
              {text('secretAccessKey', 'location.secretAccessKey', 'Secret access key', {
                type: 'password',
                hint: 'Sealed at rest; never shown again.',
              })}
              {text('endpoint', 'location.endpoint', 'Endpoint (optional)', {
                placeholder: 'https://…',
                hint: 'Only for an S3-compatible store (MinIO, R2); empty for AWS.',
                words: 'The endpoint',
              })}
            </div>
          )}
          {/* Only the location's own messages: its fields' are beside them. */}
          <FieldError id={`${p}-location-error`} label="The location" messages={fieldMessages(error, 'location')} />
        </fieldset>
      )}

      <ProblemMessage error={withoutShown(error)} />
      <div class="form-actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Connecting…' : 'Connect the tenant'}
        </button>
        <button type="button" class="plain" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
