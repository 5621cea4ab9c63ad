/** Node's codes for a certificate chain nobody it trusts vouches for (self-signed, an unknown issuer). */
const untrustedIssuerCode =
  /\b(?:DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(?:_LOCALLY)?)\b/;

/** What is wrong with the server's certificate, in words a user can act on; undefined when TLS was not the problem. */
export function certificateProblem(detail: string): string | undefined {
  if (untrustedIssuerCode.test(detail)) {
    return `its TLS certificate is not trusted (${detail}). If the server is yours, with a certificate of your own, point NODE_EXTRA_CA_CERTS at the certificate that signed it.`;
  }
  if (/\bERR_TLS_CERT_ALTNAME_INVALID\b/.test(detail))
    return `its TLS certificate is for another name (${detail}). Check the host in the base URL.`;
  if (/\bCERT_(?:HAS_EXPIRED|NOT_YET_VALID)\b/.test(detail))
    return `its TLS certificate is out of date (${detail}). Check the server's certificate, and this machine's clock.`;
  return undefined;
}
