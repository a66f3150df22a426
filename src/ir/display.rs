//! A readable text form of the IR (`hlslc --emit ir`), used by pass tests.
