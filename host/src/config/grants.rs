//! What a plugin hook is granted beyond its sandbox (CONTRACT §5): outgoing HTTP to
//! listed hosts (`allowedHosts`) and a private persistent store (`state`).
//!
//! Both default to nothing. They are part of what a reviewer approves
//! (`hookhost trust`), what `hookhost check` shows, and — for the store — of which
//! store a plugin gets ([`StateGrant::scope`]).

use std::fmt;
use std::net::IpAddr;

/// The default `state.maxBytes`: keys plus values of one plugin's store.
pub const DEFAULT_STATE_MAX_BYTES: u64 = 1024 * 1024;
/// The largest `state.maxBytes` accepted (larger ones are clamped, with a warning).
pub const MAX_STATE_MAX_BYTES: u64 = 1024 * 1024 * 1024;

/// A plugin hook's grants.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Grants {
    /// Hosts it may send HTTP(S) requests to; empty: none.
    pub allowed_hosts: Vec<HostPattern>,
    /// Its persistent store, if granted.
    pub state: Option<StateGrant>,
}

impl Grants {
    /// The `allowedHosts` entries as written canonically, sorted: the form the
    /// store identity and the trust key are made of (order in settings does not
    /// make another plugin).
    pub fn sorted_hosts(&self) -> Vec<String> {
        let mut hosts: Vec<String> = self.allowed_hosts.iter().map(ToString::to_string).collect();
        hosts.sort();
        hosts
    }

    /// One line per grant, as `check` and the trust prompt show them.
    pub fn describe(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if !self.allowed_hosts.is_empty() {
            let hosts: Vec<String> = self.allowed_hosts.iter().map(|h| h.to_string()).collect();
            lines.push(format!("network: {}", hosts.join(", ")));
        }
        if let Some(state) = &self.state {
            lines.push(format!(
                "state: up to {} bytes ({} store)",
                state.max_bytes, state.scope
            ));
        }
        lines
    }
}

/// The `state` grant.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StateGrant {
    /// Keys plus values may take at most this many bytes.
    pub max_bytes: u64,
    /// Whose store: `user` for the user's and system's files (and `--settings`
    /// files), `project <dir>` for a repository's — so a repository's plugin never
    /// opens the store of the user's plugin of the same name.
    pub scope: String,
}

/// One `allowedHosts` entry.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum HostPattern {
    /// A host name or IP literal (lower case, IPv6 without brackets), with an
    /// optional port; without one, only ports 80 and 443.
    Host {
        /// The name or address.
        host: String,
        /// The one port allowed, if given.
        port: Option<u16>,
    },
    /// `*.suffix`: any name under `suffix` (not `suffix` itself).
    Suffix {
        /// The suffix, without `*.`.
        suffix: String,
        /// The one port allowed, if given.
        port: Option<u16>,
    },
    /// An address range (`10.0.0.0/8`): requests to addresses in it, and names
    /// that resolve into it, are allowed (a name still has to be listed).
    Range {
        /// The network address.
        network: IpAddr,
        /// The prefix length.
        prefix: u8,
    },
}

/// Why an `allowedHosts` entry is not understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HostPatternError {
    /// Empty or blank.
    #[error("an empty host")]
    Empty,
    /// A URL rather than a host.
    #[error("a host, not a URL: write \"{0}\"")]
    Url(String),
    /// `*` alone or a `*` anywhere but a leading `*.`.
    #[error("a wildcard is only allowed as a leading \"*.\" (e.g. \"*.corp.example\")")]
    Wildcard,
    /// The port is not a number from 1 to 65535.
    #[error("the port is not a number from 1 to 65535")]
    Port,
    /// A malformed address range.
    #[error("not an address range such as \"10.0.0.0/8\"")]
    Range,
    /// Characters a host name cannot have.
    #[error("not a host name, IP address or range")]
    Host,
}

impl HostPattern {
    /// Parses an entry: `host`, `host:port`, `[v6]:port`, `*.suffix[:port]`, `ip/len`.
    pub fn parse(text: &str) -> Result<HostPattern, HostPatternError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(HostPatternError::Empty);
        }
        if let Some((_, rest)) = text.split_once("://") {
            let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
            return Err(HostPatternError::Url(host.to_owned()));
        }
        if let Some((network, prefix)) = text.split_once('/') {
            let network: IpAddr = network.parse().map_err(|_| HostPatternError::Range)?;
            let prefix: u8 = prefix.parse().map_err(|_| HostPatternError::Range)?;
            let bits = if network.is_ipv4() { 32 } else { 128 };
            if prefix > bits {
                return Err(HostPatternError::Range);
            }
            return Ok(HostPattern::Range { network, prefix });
        }
        let (host, port) = split_port(text)?;
        let host = host.to_ascii_lowercase();
        if let Some(suffix) = host.strip_prefix("*.") {
            if suffix.contains('*') || suffix.is_empty() {
                return Err(HostPatternError::Wildcard);
            }
            check_name(suffix)?;
            return Ok(HostPattern::Suffix {
                suffix: suffix.to_owned(),
                port,
            });
        }
        if host.contains('*') {
            return Err(HostPatternError::Wildcard);
        }
        if host.parse::<IpAddr>().is_err() {
            check_name(&host)?;
        }
        Ok(HostPattern::Host { host, port })
    }

    /// Whether a request to `host` (lower case, IPv6 without brackets) on `port`
    /// is allowed by this entry.
    pub fn allows(&self, host: &str, port: u16) -> bool {
        let port_ok = |allowed: &Option<u16>| match allowed {
            Some(p) => *p == port,
            None => port == 80 || port == 443,
        };
        match self {
            HostPattern::Host { host: h, port: p } => h == host && port_ok(p),
            HostPattern::Suffix { suffix, port: p } => {
                host.len() > suffix.len() + 1
                    && host.ends_with(suffix.as_str())
                    && host.as_bytes()[host.len() - suffix.len() - 1] == b'.'
                    && port_ok(p)
            }
            HostPattern::Range { .. } => host
                .parse::<IpAddr>()
                .is_ok_and(|address| self.contains_address(address)),
        }
    }

    /// Whether this entry names `address` itself (an IP literal or a range
    /// holding it): such an address may be connected to even when it is
    /// loopback, private or link-local.
    pub fn contains_address(&self, address: IpAddr) -> bool {
        match self {
            HostPattern::Host { host, .. } => host
                .parse::<IpAddr>()
                .is_ok_and(|listed| canonical(listed) == canonical(address)),
            HostPattern::Suffix { .. } => false,
            HostPattern::Range { network, prefix } => {
                in_range(canonical(address), canonical(*network), *prefix)
            }
        }
    }
}

/// `host[:port]` as written in a URL or an `allowedHosts` entry: an IPv6
/// address in brackets.
pub fn authority(host: &str, port: Option<u16>) -> String {
    let host = if host.contains(':') {
        format!("[{host}]")
    } else {
        host.to_owned()
    };
    match port {
        Some(port) => format!("{host}:{port}"),
        None => host,
    }
}

impl fmt::Display for HostPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HostPattern::Host { host, port } => f.write_str(&authority(host, *port)),
            HostPattern::Suffix { suffix, port } => {
                f.write_str(&authority(&format!("*.{suffix}"), *port))
            }
            HostPattern::Range { network, prefix } => write!(f, "{network}/{prefix}"),
        }
    }
}

/// `host[:port]` or `[v6][:port]`; a bare IPv6 address has no port.
fn split_port(text: &str) -> Result<(&str, Option<u16>), HostPatternError> {
    let parse_port = |p: &str| match p.parse::<u16>() {
        Ok(0) | Err(_) => Err(HostPatternError::Port),
        Ok(port) => Ok(Some(port)),
    };
    if let Some(rest) = text.strip_prefix('[') {
        let (host, after) = rest.split_once(']').ok_or(HostPatternError::Host)?;
        return match after.strip_prefix(':') {
            Some(port) => Ok((host, parse_port(port)?)),
            None if after.is_empty() => Ok((host, None)),
            None => Err(HostPatternError::Host),
        };
    }
    if text.parse::<std::net::Ipv6Addr>().is_ok() {
        return Ok((text, None));
    }
    match text.rsplit_once(':') {
        Some((host, port)) => Ok((host, parse_port(port)?)),
        None => Ok((text, None)),
    }
}

fn check_name(name: &str) -> Result<(), HostPatternError> {
    let valid = !name.is_empty()
        && name.len() <= 253
        && name.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        });
    if valid {
        Ok(())
    } else {
        Err(HostPatternError::Host)
    }
}

/// IPv4-mapped IPv6 addresses as the IPv4 address they carry.
pub fn canonical(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    }
}

fn in_range(address: IpAddr, network: IpAddr, prefix: u8) -> bool {
    match (address, network) {
        (IpAddr::V4(a), IpAddr::V4(n)) => {
            let mask = u32::MAX.checked_shl(32 - u32::from(prefix)).unwrap_or(0);
            u32::from(a) & mask == u32::from(n) & mask
        }
        (IpAddr::V6(a), IpAddr::V6(n)) => {
            let mask = u128::MAX.checked_shl(128 - u32::from(prefix)).unwrap_or(0);
            u128::from(a) & mask == u128::from(n) & mask
        }
        _ => false,
    }
}

/// Whether `address` is reachable only inside this machine or its networks —
/// loopback, private, link-local (cloud metadata), shared (CGNAT), unspecified,
/// multicast or broadcast — so that a name resolving to it must not be followed
/// unless the address itself is listed (no DNS rebinding into the local network).
#[cfg_attr(not(feature = "plugins"), allow(dead_code))]
pub fn is_internal(address: IpAddr) -> bool {
    match canonical(address) {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_multicast()
                || a == 0
                || (a == 100 && (64..128).contains(&b))
                || (a == 192 && b == 0 && v4.octets()[2] == 0)
                || a >= 240
        }
        IpAddr::V6(v6) => {
            let first = v6.segments()[0];
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allows(pattern: &str, host: &str, port: u16) -> bool {
        HostPattern::parse(pattern)
            .map(|p| p.allows(host, port))
            .unwrap_or(false)
    }

    #[test]
    fn entries_allow_what_they_name() {
        assert!(allows("api.example.com", "api.example.com", 443));
        assert!(allows("API.example.com", "api.example.com", 80));
        assert!(!allows("api.example.com", "api.example.com", 8080));
        assert!(!allows("api.example.com", "evil.example.com", 443));
        assert!(allows("127.0.0.1:8080", "127.0.0.1", 8080));
        assert!(!allows("127.0.0.1:8080", "127.0.0.1", 8081));
        assert!(allows("*.corp.example", "a.b.corp.example", 443));
        assert!(!allows("*.corp.example", "corp.example", 443));
        assert!(!allows("*.corp.example", "evilcorp.example", 443));
        assert!(allows("[::1]:9000", "::1", 9000));
        assert!(allows("::1", "::1", 443));
        assert!(allows("10.0.0.0/8", "10.1.2.3", 5000));
        assert!(!allows("10.0.0.0/8", "11.1.2.3", 5000));
    }

    #[test]
    fn bad_entries_say_why() {
        assert_eq!(
            HostPattern::parse("https://api.example.com/v1"),
            Err(HostPatternError::Url("api.example.com".into()))
        );
        assert_eq!(HostPattern::parse("*"), Err(HostPatternError::Wildcard));
        assert_eq!(HostPattern::parse("a.*.b"), Err(HostPatternError::Wildcard));
        assert_eq!(HostPattern::parse("a.b:0"), Err(HostPatternError::Port));
        assert_eq!(HostPattern::parse("a.b:http"), Err(HostPatternError::Port));
        assert_eq!(
            HostPattern::parse("10.0.0.0/40"),
            Err(HostPatternError::Range)
        );
        assert_eq!(HostPattern::parse("a b"), Err(HostPatternError::Host));
        assert_eq!(HostPattern::parse(" "), Err(HostPatternError::Empty));
    }

    #[test]
    fn internal_addresses_are_recognised() {
        for internal in [
            "127.0.0.1",
            "10.0.0.1",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fd00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
        ] {
            assert!(is_internal(internal.parse().unwrap()), "{internal}");
        }
        assert!(!is_internal(IpAddr::from([93, 184, 216, 34])));
        let listed = HostPattern::parse("127.0.0.1:8080").unwrap();
        assert!(listed.contains_address("::ffff:127.0.0.1".parse().unwrap()));
    }
}
