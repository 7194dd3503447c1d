// The FRITZ!Box's own names for its DynDNS menu and fields, in the languages its interface speaks
// (AVM ships it in English and German): the one home of these names, which the update-keys page
// shows in the page's language and, on an English or Chinese page, with the German ones beside
// them (most boxes in the field are German). Quoted as the box writes them, so never translated.

export interface FritzBoxNames {
  /** The menu path to the DynDNS tab. */
  menu: string;
  useDynDns: string;
  /** The provider choice that lets one type an update URL. */
  userDefined: string;
  updateUrl: string;
  domainName: string;
  username: string;
  password: string;
}

export const FRITZBOX: { en: FritzBoxNames; de: FritzBoxNames } = {
  en: {
    menu: "Internet → Permit Access → DynDNS",
    useDynDns: "Use DynDNS",
    userDefined: "User-defined",
    updateUrl: "Update URL",
    domainName: "Domain name",
    username: "Username",
    password: "Password",
  },
  de: {
    menu: "Internet → Freigaben → DynDNS",
    useDynDns: "DynDNS benutzen",
    userDefined: "Benutzerdefiniert",
    updateUrl: "Update-URL",
    domainName: "Domainname",
    username: "Benutzername",
    password: "Kennwort",
  },
};
