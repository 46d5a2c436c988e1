/**
 * Host credentials are the server's, not a tenancy's: its managed identity, and the certificates of
 * COSTWATCH_AZURE_CERT_DIR. Their ids (a directory id, a thumbprint, a client id) are no secret, so naming them
 * must not be enough: the operator binds them to organisations (COSTWATCH_HOST_CREDENTIAL_ORGS). Without that
 * setting they serve a server of a single organisation only.
 */
export function usesHostCredentials(connector: string, credentialType: string): boolean {
  return (
    connector === 'azure' && (credentialType === 'ManagedIdentity' || credentialType === 'ServicePrincipalCertificate')
  )
}

export interface HostCredentialPolicy {
  allows(organisationId: string): Promise<boolean>
}

export function hostCredentialPolicy(deps: {
  /** The setting's organisation ids; null when it is not set. */
  organisations: readonly string[] | null
  /** Whether this organisation is the only one the server holds. */
  isOnlyOrganisation(organisationId: string): Promise<boolean>
}): HostCredentialPolicy {
  return {
    async allows(organisationId) {
      if (deps.organisations) return deps.organisations.includes(organisationId.toLowerCase())
      return deps.isOnlyOrganisation(organisationId)
    },
  }
}

/** Why a tenancy of `credentialType` is refused, for the API's field error and the run's error alike. */
export function hostCredentialsRefusal(credentialType: string): string {
  const what =
    credentialType === 'ManagedIdentity' ? "the server's own managed identity" : "a certificate of the server's folder"
  return (
    `${credentialType} uses ${what}, which the server's operator has not allowed for this organisation ` +
    '(COSTWATCH_HOST_CREDENTIAL_ORGS); use ServicePrincipalSecret, or ask the operator'
  )
}
